// Imported first by main.ts, so this runs before any other module of the bundle:
// the moment the page's script starts, after it was fetched and compiled.
import { PAGE_MARKS } from './pageTimings';

performance.mark(PAGE_MARKS.scriptStart);

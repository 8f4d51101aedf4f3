// The end-to-end scenarios that need only a workbench connected to a local hub,
// in the REAL VS Code workbench (code-server) with the extension installed from
// its VSIX, one after another in one workbench (oneWorkbench/scenario.ts). The
// order matters where a scenario reads the window's history: the agent text
// scenario opens the window's first untitled editor, and the inline answers
// time the window's first request page. The request form and the end to end go
// last: both reload the window, and the end to end restarts the hub.
import { answerSimilar } from './oneWorkbench/answerSimilar';
import { doubledAnswer } from './oneWorkbench/doubledAnswer';
import { endToEnd } from './oneWorkbench/endToEnd';
import { honestCapture } from './oneWorkbench/honestCapture';
import { inboxLevels } from './oneWorkbench/inboxLevels';
import { inline } from './oneWorkbench/inline';
import { ownItems } from './oneWorkbench/ownItems';
import { requestForm } from './oneWorkbench/requestForm';
import { runInOneWorkbench } from './oneWorkbench/scenario';
import { staleToast } from './oneWorkbench/staleToast';
import { untrustedText } from './oneWorkbench/untrustedText';

runInOneWorkbench('one connected workbench', [untrustedText, inline, honestCapture, doubledAnswer, ownItems, staleToast, answerSimilar, inboxLevels, requestForm, endToEnd]);

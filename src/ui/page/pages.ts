// What pagesOnDemand.ts loads when a page is first needed, as one chunk: the request and
// history pages, their controllers and the page host (src/app/page), the panels.
export { RequestPages } from './requestPages';
export { HistoryPages } from './historyPages';

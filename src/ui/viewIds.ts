// The ids of the views and the page type package.json contributes, in one leaf
// module: what activation registers and what a part loaded later opens import
// them from here, not from each other (a lazy chunk importing back from what
// activation holds would split that into a chunk of its own).
export const REQUEST_VIEW_TYPE = 'aepAttention.request';
export const ALERTS_VIEW_ID = 'aepAttention.alerts';
export const INBOX_VIEW_ID = 'aepAttention.inbox';
export const HISTORY_VIEW_ID = 'aepAttention.history';

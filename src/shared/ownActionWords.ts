// Our own action words: every button and item of this editor that a surface
// shows beside agent-authored text (the notification's buttons, the quick
// input's items and title-bar buttons, Answer Similar's pick and its
// confirmation, the request page's buttons). One registry, so the rule
// that marks an agent's label reading like ours (src/answer/ownItems.ts)
// knows every one of them, and a button added later is added here or a
// test (ownActionWords.test.ts) names the surface that forgot.
//
// It lives in src/shared because both bundles show these words and both ask
// the rule: the host (notifications, quick input) and the page (its
// buttons). Each side has its own `@vscode/l10n`, loaded with the same
// bundle, so the words read alike wherever they are asked.
import * as l10n from '@vscode/l10n';

/** Where our words stand beside the agent's. */
export type OwnSurface = 'notification' | 'quick-input' | 'similar' | 'page';

/**
 * Stands for a number in our words ("Answer {0} Similar…"): the rule reads
 * it as any text, so an agent's "Answer 2 Similar…", "Answer 99 similar..."
 * or "Answer ２ Similar" reads like ours whatever the number. A private-use
 * character: nothing a label shows, and never folded away.
 */
export const ANY_COUNT = '\uE000';

interface OwnAction {
  readonly surfaces: readonly OwnSurface[];
  /** The words as shown; `count` fills the number, if the words have one. */
  readonly words: (count: number | string) => string;
}

export const OWN_ACTIONS = {
  // The notification of a request, of several, of similar ones.
  answer: { surfaces: ['notification'], words: () => l10n.t('Answer') },
  open: { surfaces: ['notification'], words: () => l10n.t('Open') },
  openInbox: { surfaces: ['notification'], words: () => l10n.t('Open Inbox') },
  answerSimilar: { surfaces: ['notification'], words: (count) => l10n.t('Answer {0} Similar…', count) },
  // The offer to allow system notifications: a toast of ours that comes beside the first request's (issue 42).
  allowSystemNotifications: { surfaces: ['notification'], words: () => l10n.t('Allow System Notifications') },
  dontAskAgain: { surfaces: ['notification'], words: () => l10n.t('Don\'t Ask Again') },
  // The quick input: items after the agent's, and the title bar's buttons.
  replyWithText: { surfaces: ['quick-input', 'notification'], words: () => l10n.t('Reply with text…') },
  openAsPage: { surfaces: ['quick-input', 'notification'], words: () => l10n.t('Open as page') },
  openAsPageButton: { surfaces: ['quick-input'], words: () => l10n.t('Open as page (Ctrl+Shift+Enter)') },
  replyInWords: { surfaces: ['quick-input'], words: () => l10n.t('Reply in words instead…') },
  other: { surfaces: ['quick-input'], words: () => l10n.t('Other…') },
  leaveEmpty: { surfaces: ['quick-input'], words: () => l10n.t('Leave empty') },
  // Asked before an agent's option that reads like one of ours is sent: in the quick input, and on the page.
  backToChoices: { surfaces: ['quick-input', 'page'], words: () => l10n.t('Back to the choices') },
  sendAgentsOption: { surfaces: ['quick-input', 'page'], words: () => l10n.t('Send the agent\'s option') },
  // Answer Similar: the confirmation's button.
  sendAnswers: { surfaces: ['similar'], words: (count) => l10n.t('Send {0} Answers', count) },
  // The request page: its buttons beside the agent's option buttons.
  sendAnswer: { surfaces: ['page'], words: () => l10n.t('Send answer') },
  sendReplyOnly: { surfaces: ['page'], words: () => l10n.t('Send reply only') },
  sendReply: { surfaces: ['page'], words: () => l10n.t('Send reply') },
  sendReplyWords: { surfaces: ['page'], words: () => l10n.t('Send Reply') },
  replyInWordsPage: { surfaces: ['page'], words: () => l10n.t('Reply in Words Instead…') },
  sendAgain: { surfaces: ['page'], words: () => l10n.t('Send again (same answer)') },
  setHubToken: { surfaces: ['page'], words: () => l10n.t('Set Hub Token') },
  openSettings: { surfaces: ['page'], words: () => l10n.t('Open Settings') },
} as const satisfies Record<string, OwnAction>;

export type OwnActionName = keyof typeof OWN_ACTIONS;

/** Every entry's words as the rule reads them: a number stands as `ANY_COUNT`. */
export function ownActionWords(): string[] {
  return Object.values(OWN_ACTIONS).map((action: OwnAction) => action.words(ANY_COUNT));
}

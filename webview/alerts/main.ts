import * as l10n from '@vscode/l10n';
import { checkHostToAlerts } from '../../src/shared/alertChecks';
import type { AlertSettings, AlertsToHost, HostToAlerts, PermissionState } from '../../src/shared/alertMessages';
import { el } from '../dom';
import { configureStrings } from '../l10n';
import { chimeState, playChime } from './chime';

// The notifications view: a small sidebar webview the extension keeps alive
// (retainContextWhenHidden) because a webview is the one place an extension
// can reach the system's notifications from, in desktop VS Code and in a
// browser alike (the `Notification` API). What it shows is worded by the host
// and set as the notification's plain title and body; it never decides what
// to notify, only reports what the browser allowed.

interface VsCodeApi {
  postMessage(message: AlertsToHost): void;
}
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();

/** The notifications on screen, by the host's id, so a closed request takes its own back. */
const shown = new Map<string, Notification>();
let settings: AlertSettings | undefined;
/** The extension showed this view itself (issue 42): it says why, until the person has allowed or refused. */
let openedByExtension = false;

function permission(): PermissionState {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

function permissionSentence(state: PermissionState): string {
  switch (state) {
    case 'granted': return l10n.t('System notifications are allowed.');
    case 'default': return l10n.t('System notifications need your permission first.');
    case 'denied': return l10n.t('System notifications are blocked for VS Code here. Allow them in the browser\'s site settings or in your system\'s notification settings; this view notices the change.');
    case 'unsupported': return l10n.t('This VS Code does not let an extension\'s view show system notifications. Requests still show as notifications inside the window.');
  }
}

function nextSentence(now: AlertSettings): string {
  if (now.mode === 'off') return l10n.t('System notifications are off (setting: AEP Attention: OS Notifications).');
  if (now.mode === 'whenUnfocused' && now.focused) return l10n.t('This window has focus: the next request shows inside VS Code only.');
  return now.focused
    ? l10n.t('The next request also shows as a system notification.')
    : l10n.t('This window is in the background: the next request shows as a system notification.');
}

function render(): void {
  const app = document.getElementById('app');
  if (!app || !settings) return;
  const state = permission();
  const allow = state === 'default'
    ? el('button', { id: 'allow', type: 'button' }, l10n.t('Allow System Notifications'))
    : undefined;
  allow?.addEventListener('click', () => void askPermission());
  const test = el('button', { id: 'test-sound', type: 'button', class: 'secondary' }, l10n.t('Play Test Sound'));
  test.addEventListener('click', () => void testSound());
  const why = openedByExtension
    ? el('p', { id: 'why' }, l10n.t('AEP Attention opened this view because system notifications reach you from here while you are in another window; it keeps working when you switch or close the sidebar.'))
    : undefined;
  app.replaceChildren(
    ...(why ? [why] : []),
    el('p', { id: 'permission', class: `permission ${state}` }, permissionSentence(state)),
    ...(allow ? [allow] : []),
    el('p', { id: 'next', role: 'status' }, nextSentence(settings)),
    el('p', { id: 'sound' }, settings.sound
      ? l10n.t('Sound: on, when this window is in the background.')
      : l10n.t('Sound: off (setting: AEP Attention: Sound).')),
    test,
  );
}

/**
 * Asks the browser. Chromium (code-server) and Electron (desktop VS Code)
 * ask without a click in the view, so the person's click on Allow System
 * Notifications outside it is enough; a browser that wants a click here
 * (Firefox, Safari) leaves the permission undecided, and the view's own
 * button stays for that click.
 */
async function askPermission(): Promise<void> {
  if (typeof Notification === 'undefined') return;
  try {
    await Notification.requestPermission();
  } catch {
    // An old callback-only API or a refusal to ask: what `permission` says next is the answer.
  }
  vscode.postMessage({ type: 'permission', permission: permission() });
  render();
}

async function testSound(): Promise<void> {
  const result = await playChime();
  vscode.postMessage({ type: 'sound', sound: result === 'played' ? 'ready' : result });
}

function alert(message: Extract<HostToAlerts, { type: 'alert' }>): void {
  if (message.sound) {
    void playChime().then((result) => {
      if (result !== 'played') vscode.postMessage({ type: 'sound', sound: result });
    });
  }
  const notice = message.notice;
  if (!notice) return;
  if (permission() !== 'granted') {
    vscode.postMessage({ type: 'permission', permission: permission() });
    return;
  }
  let notification: Notification;
  try {
    // `tag`: a second alert for the same id replaces the first instead of stacking.
    // `silent` when our own sound plays, so the system's does not play over it.
    notification = new Notification(notice.title, { body: notice.body, tag: message.id, ...(message.sound ? { silent: true } : {}) });
  } catch {
    vscode.postMessage({ type: 'failed', id: message.id });
    return;
  }
  shown.set(message.id, notification);
  notification.addEventListener('show', () => vscode.postMessage({ type: 'shown', id: message.id }));
  notification.addEventListener('error', () => vscode.postMessage({ type: 'failed', id: message.id }));
  notification.addEventListener('close', () => shown.delete(message.id));
  notification.addEventListener('click', () => {
    // Brings the window forward where the browser lets a notification's click do so.
    window.focus();
    notification.close();
    vscode.postMessage({ type: 'clicked', id: message.id });
  });
}

function receive(message: HostToAlerts): void {
  switch (message.type) {
    case 'init':
      configureStrings(message.l10n);
      settings = message.settings;
      render();
      return;
    case 'settings':
      // The host also sends them unchanged, to learn that this page is there (a round trip before it claims a
      // request): drawn again, the view would take the focus off the button the person is on.
      if (settings && JSON.stringify(settings) === JSON.stringify(message.settings)) return;
      settings = message.settings;
      render();
      return;
    case 'alert':
      alert(message);
      return;
    case 'close':
      shown.get(message.id)?.close();
      shown.delete(message.id);
      return;
    case 'opened':
      openedByExtension = true;
      render();
      if (message.ask && permission() === 'default') void askPermission();
      return;
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = checkHostToAlerts(event.data);
  // Only the host posts here; anything else is ignored rather than acted on.
  if (parsed.success) receive(parsed.data);
});

// Any click here lets the browser play sound from now on: say so, so the host stops warning.
let soundState = chimeState();
document.addEventListener('pointerdown', () => setTimeout(() => {
  const now = chimeState();
  if (now !== soundState) vscode.postMessage({ type: 'sound', sound: (soundState = now) });
}, 0), true);

// The person may change the permission in the browser's settings meanwhile.
void navigator.permissions?.query({ name: 'notifications' }).then(
  (status) => status.addEventListener('change', () => {
    vscode.postMessage({ type: 'permission', permission: permission() });
    render();
  }),
  () => undefined,
);

vscode.postMessage({ type: 'ready', permission: permission(), sound: soundState });

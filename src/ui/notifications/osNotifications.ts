import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Logger } from '../../base/logger';
import type { RedactionOptions } from '../../aep/redaction';
import { AlertPacing, type Paced } from '../../inbox/alertPacing';
import type { AttentionItem } from '../../inbox/inbox';
import { HeldUntilReady } from '../../inbox/heldUntilReady';
import { FocusMarker } from '../../inbox/focusMarker';
import { NoticeClaims } from '../../inbox/noticeClaims';
import { checkAlertsToHost } from '../../shared/alertChecks';
import type { AlertSettings, AlertsToHost, HostToAlerts, PermissionState, SoundState } from '../../shared/alertMessages';
import { Disposable, MutableDisposable, toDisposable } from '../../base/disposable';
import { Emitter, type Subscription } from '../../base/emitter';
import { settleWithin } from '../../base/settleWithin';
import { hubToastPolicy } from '../../app/hubs/connectionInputs';
import type { Hub, Hubs } from '../../app/hubs/hubs';
import type { SettingsService } from '../services/settings';
import { webviewHtml } from '../../app/page/webviewHtml';
import { notify } from '../surfaces';
import type { NotifierActions } from './notifier';
import { osMoreText, osNoticeText, wantsOsNotice } from '../../words/osNotice';
import type { PageBeforeAsking } from '../../shared/beforeAsking';
import { mayOpenFor, setupStep } from '../../shared/osNoticeSetup';
import { ALERTS_VIEW_ID } from '../viewIds';

/** Profile-wide (global state): a view saw the browser's permission granted; a refusal seen later clears it. */
const GRANTED_KEY = 'osNotifications.grantedInProfile';
/** Profile-wide: a view saw the browser refuse (denied, unsupported); a grant or a reset seen later clears it. */
const REFUSED_KEY = 'osNotifications.refusedInProfile';
/** Profile-wide: the person chose Don't Ask Again on the offer. */
const DECLINED_KEY = 'osNotifications.offerDeclined';
/** How long Connect waits for its hub to connect before offering. */
const CONNECT_WAIT_MS = 30_000;
/**
 * How long a burst waits for the view's page to answer before this window gives up its claim (another window's is as
 * good); a live page answers in milliseconds, a loaded one in a second or two.
 */
const REACH_MS = 10_000;
/** How many notifications are remembered for their click and their closing; older ones are left to the system. */
const REMEMBERED = 32;

/** What a click on a notification does, as the toast's primary actions would. */
export type AlertActions = Omit<NotifierActions, 'answerWithOption' | 'answerSimilar'>;

/** One agent's requests of one burst, and the hub named in its title when the window has several. */
interface Burst {
  readonly items: ReadonlyArray<Readonly<AttentionItem>>;
  readonly hub: string | undefined;
  /** Whether the person looked at a window of its hub when it came: read once, on its first delivery, and kept while it is held. */
  readonly lookedThen?: Promise<boolean>;
}

/** How often claims of requests long closed are swept from the shared directory. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Why an alert that was wanted could not be given, as the status tooltip and the log say it. */
type Problem = 'no-view' | 'not-allowed' | 'denied' | 'unsupported' | 'failed' | 'sound-blocked' | 'sound-unsupported';

/**
 * The system's notifications and the optional sound (issue 28), through the
 * notifications view (webview/alerts/main.ts). An extension has no API for
 * either; a webview's `Notification` is what desktop VS Code and a browser
 * both offer. The view exists once VS Code has shown it (its sidebar opened
 * in this window, then kept alive hidden): until then, and whenever the
 * browser refuses, the status tooltip and the log say so, once. Loaded
 * just after activation (osNotificationsOnDemand.ts), which registers its
 * view and command.
 */
export class OsNotifications extends Disposable implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private permission: PermissionState | undefined;
  private sound: SoundState | undefined;
  private lastFailed = false;
  private counter = 0;
  /** Tags are per origin in the browser: two windows of one code-server would replace each other's notifications without it. */
  private readonly window = randomBytes(6).toString('hex');
  /** Notification id → the keys of its requests, oldest first. */
  private readonly live = new Map<string, string[]>();
  private readonly told = new Set<Problem>();
  /** This window offered the click, or opened the view by itself (issue 42): either happens once per window. */
  private doneInWindow = false;
  /** What to tell the view once it is ready: it was opened by us (and whether to ask the browser). */
  private pendingOpen: { ask: boolean } | undefined;
  /** Connect to Hub's wait for its hub to connect before the offer; one at a time, released with the window. */
  private readonly connectWait = new MutableDisposable<Subscription>();
  /** Bursts held while the view this window opened by itself gets ready. */
  private readonly held = new HeldUntilReady<Burst>({
    still: (burst) => this.stillWaiting(burst),
    expired: (dropped) => {
      if (dropped > 0) this.tell('no-view');
      // The view this window opened by itself did not come: later requests are not held for it. One the person
      // asked for keeps its ask, for when the view does come.
      if (this.pendingOpen && !this.pendingOpen.ask) this.pendingOpen = undefined;
    },
  });
  private sweepTimer: ReturnType<typeof setTimeout> | undefined;
  /** The round trip to the view's page that claims wait on (`reachable`). */
  private roundTrip: Promise<boolean> | undefined;
  private lastClaimSweep = 0;
  /** Shared by every window of this profile: one notification and one sound per request, however many windows are open. */
  private readonly claims: NoticeClaims;
  private readonly focus: FocusMarker;
  private readonly pacing = new AlertPacing<Burst>({
    take: (now) => this.claims.claimSlot(now),
    still: (burst) => this.stillWaiting(burst),
    give: (alert) => this.give(alert),
  });
  private readonly changes = this._register(new Emitter<void>((error) => this.log.error(`listener failed: ${String(error)}`)));
  /** Fires when what `notes` says may have changed. */
  readonly onDidChange = this.changes.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly hubs: Hubs,
    private readonly settings: SettingsService,
    private readonly log: Logger,
    private readonly actions: AlertActions,
    /** What the pipeline runs with (the user's home and always-secret values): a prompt it would change is withheld. */
    private readonly redaction: () => RedactionOptions,
    /** The directory every window of this profile on this machine shares (the extension's global storage); undefined when there is none. */
    sharedDir: string | undefined,
    /** The profile's global state: whether the browser allowed a view of this profile, and whether the offer was declined. */
    private readonly profile: vscode.Memento,
  ) {
    super();
    this.claims = new NoticeClaims(sharedDir, this.window, { onProblem: (message) => this.log.warn(message) });
    // The round trip that keeps the marker fresh: a command run by the page, which a gone page never answers.
    this.focus = new FocusMarker(this.claims, () => vscode.commands.executeCommand('setContext', 'aepAttention.pageAnswers', true),
      (error) => this.log.warn(`could not share this window's focus: ${String(error)}`));
    this._register(vscode.window.onDidChangeWindowState(() => {
      this.postSettings();
      this.markFocus();
    }));
    this._register(hubs.onDidChangeHubs(() => this.markFocus()));
    this._register(toDisposable(() => {
      this.pacing.dispose();
      this.focus.dispose();
      void this.claims.clearFocused();
    }));
    this.markFocus();
    this._register(settings.onDidChange(() => {
      this.postSettings();
      // What this window shows a toast for may have changed: the others read it from the marker.
      this.markFocus();
      this.changes.fire();
    }));
    this._register(hubs.onDidChangeInbox(() => this.scheduleSweep()));
    this._register(toDisposable(() => clearTimeout(this.sweepTimer)));
    this._register(this.held);
    this._register(this.connectWait);
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    const root = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const style = vscode.Uri.joinPath(this.extensionUri, 'media', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [root, style] };
    view.webview.html = webviewHtml({
      cspSource: view.webview.cspSource,
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(root, 'alerts.js')).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(style, 'alerts.css')).toString(),
      nonce: randomBytes(18).toString('base64'),
      lang: vscode.env.language,
      title: l10n.t('Notifications'),
      loading: l10n.t('Loading…'),
    });
    const subscriptions = [
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      view.onDidDispose(() => {
        subscriptions.forEach((subscription) => subscription.dispose());
        if (this.view === view) this.view = undefined;
        this.ready = false;
        this.changes.fire();
      }),
    ];
    this.changes.fire();
  }

  private get mode(): AlertSettings['mode'] {
    return this.settings.value.osNotifications;
  }

  private get alertSettings(): AlertSettings {
    return { mode: this.mode, sound: this.settings.value.sound, focused: vscode.window.state.focused };
  }

  /**
   * One agent's requests of one burst, as the notifier groups them for its
   * toast, and under the same rules (it calls this only for what it notifies).
   */
  alert(items: ReadonlyArray<Readonly<AttentionItem>>, hub: string | undefined): void {
    // The first toast while notifications are not possible yet carries the offer beside it.
    if (this.step() === 'offer') this.offer();
    this.deliver({ items, hub }).catch((error: unknown) => this.log.error(`a system notification failed: ${String(error)}`));
  }

  /** Allow System Notifications: shows the view, which asks the browser's permission. */
  allow(): Promise<void> {
    return this.open({ ask: true });
  }

  /** Connect to Hub's last step (issue 42): once the hub is connected, the offer (or, the browser having allowed this profile already, the view by itself). */
  afterConnect(hub: Hub): void {
    const go = () => {
      const step = this.step();
      if (step === 'offer') this.offer();
      else if (step === 'open') this.show({ ask: false });
    };
    if (hub.state.kind === 'connected') {
      go();
      return;
    }
    this.connectWait.clear();
    const waiting = toDisposable(() => {
      clearTimeout(timer);
      listener.dispose();
    });
    const done = () => {
      if (this.connectWait.value === waiting) this.connectWait.clear();
      else waiting.dispose();
    };
    const timer = setTimeout(done, CONNECT_WAIT_MS);
    const listener = this.hubs.onDidChangeState((changed) => {
      if (changed !== hub) return;
      if (hub.state.kind === 'connected') {
        done();
        go();
      } else if (hub.state.kind === 'failed' || hub.state.kind === 'disconnected') {
        done();
      }
    });
    // Last, once what it stops exists: a window already closing stops it at once.
    this.connectWait.value = waiting;
  }

  private step(): ReturnType<typeof setupStep> {
    return setupStep({
      mode: this.mode,
      viewReady: this.view !== undefined && this.ready,
      permission: this.permission,
      grantedInProfile: this.profile.get<boolean>(GRANTED_KEY) === true,
      refusedInProfile: this.profile.get<boolean>(REFUSED_KEY) === true,
      doneInWindow: this.doneInWindow,
      declined: this.profile.get<boolean>(DECLINED_KEY) === true,
    });
  }

  /** The one click: a toast whose button shows the view and asks the browser. Once per window. */
  private offer(): void {
    this.doneInWindow = true;
    this.log.info('offering to allow system notifications in this window');
    void notify<'allow' | 'never'>('info', l10n.t('Agents can reach you with a system notification while you are in another window. Allow them? This shows the AEP Attention Notifications view once.'), [
      { title: l10n.t('Allow System Notifications'), value: 'allow' },
      { title: l10n.t('Don\'t Ask Again'), value: 'never' },
    ]).then((choice) => {
      if (choice === 'allow') this.show({ ask: true });
      else if (choice === 'never') void this.profile.update(DECLINED_KEY, true);
    });
  }

  /**
   * Shows the Notifications view, which VS Code creates only when it shows
   * it, without taking the keyboard focus (`<view>.open`, preserveFocus);
   * VS Code keeps it alive hidden from then on. With `ask`, the view asks
   * the browser's permission if it has none yet. The sidebar stays on the
   * view, which says why it opened: VS Code does not tell an extension which
   * sidebar view was showing before, so it cannot be put back.
   */
  private show(options: { ask: boolean }): void {
    this.open(options).catch((error: unknown) => this.log.warn(`could not show the notifications view: ${String(error)}`));
  }

  private async open(options: { ask: boolean }): Promise<void> {
    this.doneInWindow = true;
    if (this.view && this.ready) {
      void this.post({ type: 'opened', ask: options.ask });
      if (options.ask) this.view.show(true);
      return;
    }
    this.pendingOpen = options;
    this.log.info(`showing the notifications view${options.ask ? ' to ask the browser\'s permission' : ', the browser having allowed this profile before'}`);
    try {
      await vscode.commands.executeCommand(`${ALERTS_VIEW_ID}.open`, { preserveFocus: true });
    } catch {
      // A VS Code without the generated open command: focus the view, then give the focus back to the editor.
      await vscode.commands.executeCommand(`${ALERTS_VIEW_ID}.focus`);
      if (vscode.window.activeTextEditor) await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    }
  }

  /**
   * Which window gives a request's system notification and sound: one that
   * can (its view is ready, the browser allows it), when nobody is looking at
   * a window that shows the request's toast: this one focused, or another
   * window focused and connected to the same hub. Of the windows left, the
   * first to claim the request (NoticeClaims) gives it; the others stay quiet.
   * With `always`, a focused window's notification is wanted too, and the
   * claim still makes it one.
   */
  private async deliver(burst: Burst): Promise<void> {
    const [first] = burst.items;
    if (!first || !this.wanted(vscode.window.state.focused)) return;
    // Where the person looked when the request came, read now. A request that came while they looked at this window,
    // or at another of its hub, was in front of them as a toast: turning away before the page answers (a slow page,
    // a busy machine) does not make it a system notification. What they look at once it answers counts too.
    const lookedThen = burst.lookedThen ?? (vscode.window.state.focused ? Promise.resolve(true) : this.claims.focusedElsewhere(first));
    if (!this.view || !this.ready) {
      const focusedHere = vscode.window.state.focused;
      // Not while the person looks at another window of this hub: that window's toast is theirs, and the sidebar here need not change.
      const lookingElsewhere = this.mode !== 'always' && (await this.claims.focusedElsewhere(first));
      // Nor for requests another window claimed already (one replayed into a window opening behind it): that window gives them.
      const mayOpen = this.step() === 'open' && mayOpenFor(this.mode, focusedHere) && !lookingElsewhere;
      const claimed = mayOpen && (await Promise.all(burst.items.map((item) => this.claims.claimedAlready(item)))).every(Boolean);
      // The view got ready during those waits: it takes the burst as any other.
      if (this.view && this.ready) return this.deliver({ ...burst, lookedThen });
      if (claimed) {
        this.log.info('another window claimed the system notification for these requests', { code: 'os-notice-elsewhere' });
        return;
      }
      if (mayOpen && this.step() === 'open') this.show({ ask: false });
      if (this.pendingOpen) {
        this.hold({ ...burst, lookedThen });
        return;
      }
      this.tell('no-view');
      return;
    }
    // Only a window whose page answers takes a claim. A page gone without a word (a crashed or discarded tab, a lost
    // connection) leaves its extension host running on the server for hours (code-server's reconnection grace), still
    // connected to the hub, with a view that would take every claim and show nothing. A message to the view completes
    // only once the page has it: a slow page claims late, a gone one never (the burst is let go after REACH_MS). Whether
    // the view is still there, and where the person looks now, are read after it.
    if (!(await this.reachable())) {
      this.tell('no-view');
      return;
    }
    const looking = (await lookedThen) || vscode.window.state.focused || (await this.claims.focusedElsewhere(first));
    const notice = wantsOsNotice(this.mode, looking);
    if (notice && this.permission !== 'granted') this.tell(this.permission === 'denied' ? 'denied' : this.permission === 'unsupported' ? 'unsupported' : 'not-allowed');
    const canNotice = notice && this.permission === 'granted';
    const canSound = this.settings.value.sound && !looking && this.sound !== 'unsupported';
    // Answered meanwhile, or the view went: nothing is claimed here for it.
    const still = this.stillWaiting(burst);
    if ((!canNotice && !canSound) || !still || !this.view || !this.ready) return;
    const mine: Array<Readonly<AttentionItem>> = [];
    for (const item of still.items) if (await this.claims.claimRequest(item)) mine.push(item);
    this.sweepClaims();
    if (mine.length === 0) {
      this.log.info('another window gives the system notification for this burst', { code: 'os-notice-elsewhere' });
      return;
    }
    await this.pacing.offer({ items: mine, hub: burst.hub });
  }

  /**
   * One round trip to the view's page at a time, shared by every burst waiting on it: a gone page holds one message,
   * not one per request. Each burst waits REACH_MS at most: a gone page never answers, and every burst waiting on it
   * would be held (its requests with it, past the inbox's memory budget) until the page came back, hours later.
   */
  private reachable(): Promise<boolean> {
    const trip = (this.roundTrip ??= this.post({ type: 'settings', settings: this.alertSettings }).finally(() => (this.roundTrip = undefined)));
    return settleWithin(trip, REACH_MS, false);
  }

  /** A burst that waits for the view being opened; given when it is ready, or dropped as before when it does not come. */
  private hold(burst: Burst): void {
    this.held.hold(burst);
  }

  private releaseHeld(): void {
    // Answered, timed out or dismissed while the view opened: nothing is given for it.
    for (const burst of this.held.release()) this.deliver(burst).catch((error: unknown) => this.log.error(`a system notification failed: ${String(error)}`));
  }

  /** The burst's requests that still wait for an answer, or undefined when none does. */
  private stillWaiting(burst: Burst): Burst | undefined {
    const items = burst.items.filter((item: Readonly<AttentionItem>) => this.hubs.isWaiting(item));
    return items.length === 0 ? undefined : { ...burst, items };
  }

  /** What a view that said what the browser allows means for the other windows of this profile: anything but granted (reset, refused) takes it back. */
  private notePermission(permission: PermissionState): void {
    const granted = permission === 'granted';
    if ((this.profile.get<boolean>(GRANTED_KEY) === true) !== granted) void this.profile.update(GRANTED_KEY, granted);
    const refused = permission === 'denied' || permission === 'unsupported';
    if ((this.profile.get<boolean>(REFUSED_KEY) === true) !== refused) void this.profile.update(REFUSED_KEY, refused);
  }

  /** Whether this window would give anything for a request at all, before asking the others. */
  private wanted(focused: boolean): boolean {
    return wantsOsNotice(this.mode, focused) || (this.settings.value.sound && !focused);
  }

  /** What the pacing lets through: one burst, or those held back as one. */
  private give(alert: Paced<Burst>): void {
    const focused = vscode.window.state.focused;
    const items = alert.kind === 'one' ? alert.burst.items : alert.bursts.flatMap((burst) => burst.items);
    const text = !wantsOsNotice(this.mode, focused)
      ? undefined
      : alert.kind === 'one'
        ? osNoticeText(alert.burst.items, alert.burst.hub, this.redaction(), this.beforeAsking(alert.burst.items), Date.now())
        : osMoreText(alert.bursts.map((burst) => burst.items), this.redaction());
    const sound = this.settings.value.sound && !focused;
    if ((!text && !sound) || !this.view || !this.ready) return;
    const id = `alert-${this.window}-${++this.counter}`;
    this.live.set(id, items.map((item) => item.key));
    for (const old of [...this.live.keys()].slice(0, Math.max(0, this.live.size - REMEMBERED))) this.live.delete(old);
    void this.post({ type: 'alert', id, ...(text && this.permission === 'granted' ? { notice: text } : {}), sound });
  }

  /** "Before asking" of a lone request, whose last action ends its notification (osNotice.ts); none for a burst of several. */
  private beforeAsking(items: ReadonlyArray<Readonly<AttentionItem>>): PageBeforeAsking | undefined {
    const [only, ...more] = items;
    return only === undefined || more.length > 0 ? undefined : this.hubs.beforeAsking(only);
  }

  /** Tells the other windows whether the person is looking at this one, and for which hubs it shows toasts. */
  private markFocus(): void {
    this.focus.mark(vscode.window.state.focused, () => this.hubs.list().map((hub) => ({ hub: hub.id, policy: hubToastPolicy(hub.config, this.settings.value) })));
  }

  private sweepClaims(): void {
    const now = Date.now();
    if (now - this.lastClaimSweep < SWEEP_EVERY_MS) return;
    this.lastClaimSweep = now;
    void this.claims.sweep(now);
  }

  /** Paragraphs for the status tooltip: what keeps the notifications or the sound from reaching the person now. */
  notes(): string[] {
    const notes: string[] = [];
    if (this.mode !== 'off') {
      const problem = this.noticeProblem();
      if (problem) notes.push(problemSentence(problem));
    }
    if (this.settings.value.sound) {
      const problem = !this.view || !this.ready ? 'no-view' : this.sound === 'blocked' ? 'sound-blocked' : this.sound === 'unsupported' ? 'sound-unsupported' : undefined;
      if (problem && (problem !== 'no-view' || this.mode === 'off')) notes.push(problemSentence(problem));
    }
    return notes;
  }

  private noticeProblem(): Problem | undefined {
    if (!this.view || !this.ready) return 'no-view';
    if (this.permission === 'denied') return 'denied';
    if (this.permission === 'unsupported') return 'unsupported';
    if (this.permission !== 'granted') return 'not-allowed';
    return this.lastFailed ? 'failed' : undefined;
  }

  /** Says once, in the log, why an alert was not given; the tooltip says it for as long as it holds. */
  private tell(problem: Problem): void {
    if (this.told.has(problem)) return;
    this.told.add(problem);
    this.log.warn(`a request was not shown as a system notification or sound: ${LOG_WORDS[problem]}`);
  }

  private receive(raw: unknown): void {
    const parsed = checkAlertsToHost(raw);
    if (!parsed.success) {
      this.log.error(`ignored an invalid message from the notifications view: ${parsed.error.message}`);
      return;
    }
    this.handle(parsed.data);
  }

  private handle(message: AlertsToHost): void {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.permission = message.permission;
        this.sound = message.sound;
        this.log.info(`notifications view ready: permission ${message.permission}, sound ${message.sound}`);
        void this.post({ type: 'init', settings: this.alertSettings, l10n: vscode.l10n.bundle });
        this.notePermission(message.permission);
        if (this.pendingOpen) {
          void this.post({ type: 'opened', ask: this.pendingOpen.ask });
          this.pendingOpen = undefined;
        }
        this.releaseHeld();
        break;
      case 'permission':
        if (message.permission !== this.permission) this.log.info(`system notifications permission: ${message.permission}`);
        this.permission = message.permission;
        this.notePermission(message.permission);
        if (message.permission === 'granted') this.told.clear();
        break;
      case 'sound':
        this.sound = message.sound;
        if (message.sound !== 'ready') this.tell(message.sound === 'blocked' ? 'sound-blocked' : 'sound-unsupported');
        break;
      case 'shown':
        this.lastFailed = false;
        break;
      case 'failed':
        this.lastFailed = true;
        this.tell('failed');
        break;
      case 'clicked':
        this.clicked(message.id);
        return;
    }
    this.changes.fire();
  }

  /** As the toast's primary action: the one request inline when it fits, else its page; a burst, the inbox. */
  private clicked(id: string): void {
    const keys = this.live.get(id);
    this.live.delete(id);
    const items = (keys ?? []).map((key) => this.hubs.item(key)).filter((item): item is Readonly<AttentionItem> => item !== undefined);
    const [first] = items;
    if (!first || items.length > 1) {
      this.actions.showInbox();
      return;
    }
    // A request closed meanwhile opens on its page, which says how it ended; nothing is sent.
    if (this.hubs.isWaiting(first) && this.actions.fitsInline(first)) this.actions.answerInline(first);
    else this.actions.open(first);
  }

  /** A notification whose requests all closed is taken back, so it does not invite an answer that cannot be sent. */
  private scheduleSweep(): void {
    if (this.sweepTimer || this.live.size === 0) return;
    this.sweepTimer = setTimeout(() => {
      this.sweepTimer = undefined;
      for (const [id, keys] of this.live) {
        const waiting = keys.some((key) => {
          const item = this.hubs.item(key);
          return item !== undefined && this.hubs.isWaiting(item);
        });
        if (!waiting) {
          this.live.delete(id);
          void this.post({ type: 'close', id });
        }
      }
    }, 100);
  }

  private postSettings(): void {
    if (this.ready) void this.post({ type: 'settings', settings: this.alertSettings });
  }

  /** Completes once the view's page has the message; false when there is no view ready to take it, or it is gone. */
  private async post(message: HostToAlerts): Promise<boolean> {
    return this.view !== undefined && this.ready && (await this.view.webview.postMessage(message).then(undefined, () => false));
  }
}

/** For the log, in English like every log line. */
const LOG_WORDS: Record<Problem, string> = {
  'no-view': 'the notifications view was not shown in this window yet',
  'not-allowed': 'the browser was not allowed to notify yet',
  denied: 'the browser or the system refused notifications',
  unsupported: 'no Notification API in extension views here',
  failed: 'the browser refused the last notification',
  'sound-blocked': 'sound blocked until the view is clicked once',
  'sound-unsupported': 'no audio in extension views here',
};

function problemSentence(problem: Problem): string {
  switch (problem) {
    case 'no-view': return l10n.t('System notifications and sound start once the AEP Attention sidebar has been opened in this window: run AEP Attention: Allow System Notifications.');
    case 'not-allowed': return l10n.t('System notifications are not allowed yet: open the AEP Attention sidebar and choose Allow System Notifications.');
    case 'denied': return l10n.t('System notifications are blocked: the browser or the system refused them. Allow them in the browser\'s site settings or the system\'s notification settings.');
    case 'unsupported': return l10n.t('System notifications are not available in this VS Code; requests show inside the window only.');
    case 'failed': return l10n.t('The last system notification could not be shown: the browser refused it.');
    case 'sound-blocked': return l10n.t('The sound is blocked until you click in the AEP Attention notifications view once (Play Test Sound).');
    case 'sound-unsupported': return l10n.t('The sound is not available in this VS Code.');
  }
}

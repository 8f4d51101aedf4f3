// Our own accepted answer after a window reload (issue 38 review, e): the
// window's memory of the commands it sent is gone, and only the answer history
// (workspaceState) still knows their ids. The agent's `attention.answered`
// caused by one of them must read as ours, not "answered elsewhere". Each
// window here is real parts: an inbox, a fresh answer pipeline, and the
// history restored from the storage the window before wrote.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Answer } from '../../src/aep/attention';
import { buildRespondCommand, type RespondCommand } from '../../src/aep/control';
import type { AepEvent } from '../../src/aep/envelope';
import type { CaptureLevel } from '../../src/aep/levels';
import { AnswerPipeline, type AnswerFacts } from '../../src/answer/answerPipeline';
import { AnswerHistory } from '../../src/history/answerHistory';
import { historyEntryId, type HubRef } from '../../src/history/historyEntry';
import { historyRecorded } from '../../src/history/historyItem';
import { Inbox, type AttentionItem } from '../../src/inbox/inbox';
import { recordedAnswer } from '../../src/inbox/recordedAnswer';
import { Emitter } from '../../src/base/emitter';
import { Hubs } from '../../src/app/hubs/hubs';
import type { Settings } from '../../src/app/hubs/settings';
import type { RequestData } from '../support/events';
import { MemoryMemento } from '../support/memoryMemento';
import { requestEvent, sessionEvent } from '../support/pageRequests';
import { RecordingLogger } from '../support/recordingLogger';

const HUB: HubRef = { id: 'http://127.0.0.1:8787', label: 'Local hub' };
const REQUEST = 'REQ-reload';
const SENDER = { agent: 'aep-attention', source: 'aep://workstation/agent/aep-attention' };
const PERMISSION: RequestData = { kind: 'permission', prompt: 'Run terraform destroy?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] };
const PASSWORD_FORM: RequestData = {
  kind: 'form', prompt: 'Sign in to the registry',
  fields: [{ id: 'user', type: 'string', label: 'User name' }, { id: 'password', type: 'string', label: 'Password', required: true }],
};

/** One window: its inbox (the request restored into it), a fresh pipeline, and the history over the workspace's storage. */
function openWindow(storage: MemoryMemento, request: RequestData) {
  const inbox = new Inbox({ hub: HUB.id });
  const history = new AnswerHistory(storage, new RecordingLogger());
  inbox.onDidChange((change) => history.noteItem(HUB, change.item));
  const pipeline = new AnswerPipeline();
  let seq = 1;
  const apply = (event: AepEvent) => assert.ok(inbox.apply(event).applied, `${event.type} was applied`);
  apply(requestEvent(request, { id: REQUEST, seq: seq++ }));
  const item = (): Readonly<AttentionItem> => {
    const found = inbox.findRequest('s1', REQUEST);
    assert.ok(found, 'the request is in the inbox');
    return found;
  };
  const facts = (of: Readonly<AttentionItem>): AnswerFacts => ({
    hub: of.hub, source: of.source, requestId: of.requestId, session: of.session, request: of.request, status: of.status, notAccepting: false, kept: [],
  });
  return {
    history, item,
    /** The command as a surface builds it, handed to the history as Hubs' onDidSendAnswer does, then accepted. */
    sendAccepted(answer: Answer, verbatim = false): RespondCommand {
      const it = item();
      assert.ok(it.request);
      const built = buildRespondCommand(it.request, answer, SENDER, Date.now(), { verbatim });
      assert.ok(built.ok, built.ok ? '' : built.refusal.reason);
      history.recordSent(HUB, it, built.command);
      history.recordOutcome(built.command.id, { kind: 'accepted', commandId: built.command.id });
      return built.command;
    },
    answered(answer: Answer, cause: string, capture: CaptureLevel = 'redacted') {
      apply(sessionEvent('attention.answered', { seq: seq++, subject: REQUEST, cause, capture, data: { answer, via: 'control', by: 'human:alice' } }));
      return item();
    },
    /** As Hubs.recorded reads it: this window's own sends, then what the history kept. */
    recorded(of: Readonly<AttentionItem>) {
      return recordedAnswer(of, pipeline.sentAnswers(facts(of)), () => history.sentAnswers(HUB, of.key));
    },
  };
}

/** Sends and gets the answer accepted in one window, then reloads: a new window over the same storage. */
function acceptedThenReloaded(request: RequestData, answer: Answer, verbatim = false) {
  const storage = new MemoryMemento();
  const before = openWindow(storage, request);
  const command = before.sendAccepted(answer, verbatim);
  before.history.dispose();
  return { command, after: openWindow(storage, request) };
}

describe('after a window reload, an answer sent before it still reads as ours', () => {
  test('accepted, reload, then the agent records it with our cause: as sent, not answered elsewhere', (t) => {
    const { command, after } = acceptedThenReloaded(PERMISSION, { option: 'allow' });
    t.after(() => after.history.dispose());
    const item = after.answered({ option: 'allow' }, command.id);
    assert.deepEqual(after.recorded(item), { verdict: 'as-sent' });
    // The history, read back, says the same (it judged the record against the sends it kept).
    const entry = after.history.entry(historyEntryId(HUB, item.key));
    assert.ok(entry);
    assert.deepEqual(historyRecorded(entry), { verdict: 'as-sent' });
  });

  test('a record caused by our command that applied something else differs; another cause is still elsewhere', (t) => {
    const { command, after } = acceptedThenReloaded(PERMISSION, { option: 'allow' });
    t.after(() => after.history.dispose());
    const item = after.answered({ option: 'deny' }, command.id);
    assert.deepEqual(after.recorded(item), { verdict: 'differs', answer: { option: 'deny' }, via: 'control', by: 'human:alice' });

    const other = acceptedThenReloaded(PERMISSION, { option: 'allow' });
    t.after(() => other.after.history.dispose());
    assert.equal(other.after.recorded(other.after.answered({ option: 'allow' }, 'CMD-other-window')).verdict, 'elsewhere');
  });

  test('what the history masked is never compared: a password sent before the reload reads unconfirmed, never as sent', (t) => {
    const answer = { values: { user: 'alice', password: 'Correct-Horse-9' } };
    // A password goes as typed (capture `full`): the pipeline would replace it whole.
    const { command, after } = acceptedThenReloaded(PASSWORD_FORM, answer, true);
    t.after(() => after.history.dispose());
    // The agent records exactly what was sent; the history kept the password masked, so it cannot say so.
    const item = after.answered(answer, command.id, 'full');
    assert.deepEqual(after.recorded(item), { verdict: 'unconfirmed', answer, via: 'control', by: 'human:alice' });
  });

  test('Hubs.recorded asks the history it is given for the sends kept before the reload', (t) => {
    const { command, after } = acceptedThenReloaded(PERMISSION, { option: 'allow' });
    t.after(() => after.history.dispose());
    const settings = { get value(): Settings { throw new Error('no hub is started in this test'); }, onDidChange: new Emitter<Settings>().event };
    const tokens = { get: () => Promise.resolve(undefined), onDidChange: () => ({ dispose: () => undefined }) };
    const hubs = new Hubs(settings, tokens, new MemoryMemento(), { for: () => new RecordingLogger() }, {
      keptSends: (hub, itemKey) => after.history.sentAnswers(hub, itemKey),
    });
    t.after(() => hubs.dispose());
    const item = after.answered({ option: 'allow' }, command.id);
    assert.deepEqual(hubs.recorded(item), { verdict: 'as-sent' });
  });
});

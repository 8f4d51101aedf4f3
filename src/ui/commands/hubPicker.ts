import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { Hub, Hubs } from '../../app/hubs/hubs';
import { hubFrom } from '../../app/hubs/commandTargets';
import { describeFailure } from '../../words/failureMessages';
import { notify, pick } from '../surfaces';
import { COMMANDS } from './commandIds';

/**
 * Runs a hub command on the hub it names: the inbox row it came from, the
 * only hub, or the one the person picks when there are several.
 */
export async function withHub(hubs: Hubs, argument: unknown, title: string, run: (hub: Hub) => unknown): Promise<void> {
  const hub = hubFrom(hubs, argument) ?? (await pickHub(hubs, title));
  if (hub) await run(hub);
}

export async function pickHub(all: Hubs, title: string): Promise<Hub | undefined> {
  const hubs = all.list();
  if (hubs.length === 0) {
    void notify('error', l10n.t('No hub is configured: set aepAttention.hubUrl, or add one to aepAttention.hubs.'), [
      { title: l10n.t('Open Settings'), value: 'settings' },
    ]).then((choice) => choice && vscode.commands.executeCommand(COMMANDS.openSettings));
    return undefined;
  }
  if (hubs.length === 1) return hubs[0];
  const id = await pick(
    hubs.map((hub) => ({ label: hub.label, description: hub.base ?? l10n.t('not a usable address'), detail: hubStateLine(hub), value: hub.id })),
    { title },
  );
  return id === undefined ? undefined : all.get(id);
}

/** A hub in the picker: its state in a few words. */
function hubStateLine(hub: Hub): string {
  const waiting = hub.store.visibleCount;
  const state = hub.state.kind === 'failed' ? l10n.t('cannot connect: {0}', describeFailure(hub.state.failure)) : hub.state.kind;
  return l10n.t('{0} · {1} waiting', state, waiting);
}

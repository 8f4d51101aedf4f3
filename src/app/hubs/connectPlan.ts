// No `vscode` here: which setting Connect to Hub writes is plain logic over where
// the hub's address came from (hubList.ts HubSource), unit-tested in test/unit/connectPlan.test.ts.
import { hubEndpoint } from '../../client/hubEndpoint';
import type { HubSource } from './hubList';
import { describeAddressProblem } from '../../words/failureMessages';

/**
 * Where a changed address is saved: `ask` lets the person choose the workspace
 * or the user settings (a hub from a folder's or the window's `hubUrl`, or none
 * yet); `user` when there is no workspace to save it in; `list` for a hub of the
 * user's `aepAttention.hubs` list, whose entry is edited in the settings (its
 * label and filter stay with it there).
 */
export type SaveTarget = 'ask' | 'user' | 'list';

export function saveTarget(source: HubSource | undefined, hasWorkspace: boolean): SaveTarget {
  if (source === 'list') return 'list';
  return hasWorkspace ? 'ask' : 'user';
}

/** What is wrong with a typed hub address, in the words a failed connection uses; undefined when it can be connected to. */
export function addressError(value: string, allowInsecureRemote: boolean): string | undefined {
  const endpoint = hubEndpoint(value.trim(), allowInsecureRemote);
  return endpoint.ok ? undefined : describeAddressProblem(endpoint.problem);
}

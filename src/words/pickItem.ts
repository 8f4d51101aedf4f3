/** A row of a quick pick as our words build it, before surfaces.ts makes its text inert and shows it. */
export interface PickItem<T> {
  readonly label: string;
  readonly description?: string | undefined;
  readonly detail?: string | undefined;
  /** A codicon name before the label: ours only, never agent text. */
  readonly icon?: string | undefined;
  readonly value: T;
}

// The optional sound (issue 28): two short rising tones made on the spot with
// WebAudio, unlike VS Code's own sampled signals, so the person can tell an
// agent waiting from a breakpoint or a failed task. About a third of a second,
// and quiet.

const TONES = [
  { hz: 660, at: 0, for: 0.12 },
  { hz: 990, at: 0.16, for: 0.16 },
] as const;
const VOLUME = 0.12;

export type ChimeResult = 'played' | 'blocked' | 'unsupported';

let context: AudioContext | undefined;

function audio(): AudioContext | undefined {
  if (context) return context;
  const Context = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!Context) return undefined;
  context = new Context();
  return context;
}

/** Whether a sound can play now without a click first (the browser's autoplay rule). */
export function chimeState(): 'ready' | 'blocked' | 'unsupported' {
  if ((globalThis as { AudioContext?: unknown }).AudioContext === undefined) return 'unsupported';
  if (context?.state === 'running') return 'ready';
  const activation = (navigator as { userActivation?: { hasBeenActive: boolean } }).userActivation;
  return activation === undefined || activation.hasBeenActive ? 'ready' : 'blocked';
}

/**
 * Plays the chime. A context the browser keeps suspended (no click in this
 * view yet) is given a moment to resume; if it does not, nothing plays and
 * the caller says so.
 */
export async function playChime(): Promise<ChimeResult> {
  const ctx = audio();
  if (!ctx) return 'unsupported';
  if (ctx.state !== 'running') {
    const resumed = await Promise.race([ctx.resume().then(() => true, () => false), new Promise<boolean>((done) => setTimeout(() => done(false), 300))]);
    // Read again: resume() changed it, which the compiler cannot see.
    if (!resumed || (ctx.state as AudioContextState) !== 'running') return 'blocked';
  }
  const start = ctx.currentTime + 0.02;
  for (const tone of TONES) {
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = tone.hz;
    // A soft attack and release, so the tones do not click.
    gain.gain.setValueAtTime(0, start + tone.at);
    gain.gain.linearRampToValueAtTime(VOLUME, start + tone.at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + tone.at + tone.for);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(start + tone.at);
    oscillator.stop(start + tone.at + tone.for + 0.02);
  }
  return 'played';
}

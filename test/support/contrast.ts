// WCAG 2.x contrast between computed CSS colours, for the readability checks.

export interface Rgba { r: number; g: number; b: number; a: number }

/** Parses a computed colour (`rgb(…)`/`rgba(…)`, as getComputedStyle gives them) or a hex colour. */
export function parseColor(text: string): Rgba {
  const value = text.trim().toLowerCase();
  if (value === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  const hex = /^#([0-9a-f]{3,8})$/.exec(value)?.[1];
  if (hex && [3, 4, 6, 8].includes(hex.length)) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    const byte = (i: number) => parseInt(full.slice(i * 2, i * 2 + 2), 16);
    return { r: byte(0), g: byte(1), b: byte(2), a: full.length === 8 ? byte(3) / 255 : 1 };
  }
  const fn = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(value);
  if (fn) {
    const alpha = fn[4] === undefined ? 1 : fn[4].endsWith('%') ? parseFloat(fn[4]) / 100 : parseFloat(fn[4]);
    return { r: Number(fn[1]), g: Number(fn[2]), b: Number(fn[3]), a: alpha };
  }
  throw new Error(`cannot read the colour "${text}"`);
}

/** `top` painted over an opaque `bottom`. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const mix = (t: number, b: number) => t * top.a + b * (1 - top.a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}

/**
 * The colour seen behind an element: its backgrounds and its ancestors',
 * innermost first, painted bottom-up from the first opaque one (or from
 * `canvas` when none is opaque).
 */
export function effectiveBackground(layers: readonly string[], canvas: Rgba = { r: 255, g: 255, b: 255, a: 1 }): Rgba {
  const parsed = layers.map(parseColor);
  const opaque = parsed.findIndex((c) => c.a >= 1);
  let result = opaque >= 0 ? parsed[opaque]! : canvas;
  for (let i = (opaque >= 0 ? opaque : parsed.length) - 1; i >= 0; i--) result = over(parsed[i]!, result);
  return result;
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance(color: Rgba): number {
  return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b);
}

/** WCAG contrast ratio of a (possibly translucent) foreground over an opaque background, 1 to 21. */
export function contrastRatio(foreground: Rgba, background: Rgba): number {
  const fg = relativeLuminance(over(foreground, background));
  const bg = relativeLuminance(background);
  return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
}

export function toHex(color: Rgba): string {
  const byte = (n: number) => Math.round(n).toString(16).padStart(2, '0');
  return `#${byte(color.r)}${byte(color.g)}${byte(color.b)}${color.a < 1 ? byte(color.a * 255) : ''}`;
}

/** WCAG "large text": at least 18pt (24px), or 14pt (18.66px) and bold. */
export function isLargeText(fontSizePx: number, fontWeight: number): boolean {
  return fontSizePx >= 24 || (fontSizePx >= 18.66 && fontWeight >= 700);
}

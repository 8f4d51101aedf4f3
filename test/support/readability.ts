// Reads, from the live page, the colours text and borders are drawn in and
// what they are drawn over, and judges them with WCAG contrast.
import type { Page } from 'playwright-core';
import { contrastRatio, effectiveBackground, isLargeText, parseColor, toHex, type Rgba } from './contrast';

export interface TextProbe {
  /** What the text is, for messages ("validation message"). */
  name: string;
  /** Selector in the document; every visible match is checked, and there must be one. */
  selector: string;
  /** Selector in each match's shadow root for what draws the text (the <input> of a text field). */
  shadow?: string;
}

export interface TextSample {
  probe: string;
  where: string;
  text: string;
  color: string;
  background: string;
  ratio: number;
  required: number;
  /** Product of the opacities on the way up: text faded by a disabled ancestor is not readable text. */
  opacity: number;
}

interface RawText { where: string; text: string; color: string; layers: string[]; fontSize: number; fontWeight: number; opacity: number }

export interface BorderSample {
  where: string;
  focused: boolean;
  sides: Array<{ width: number; style: string; color: string }>;
  /** The colour outside the control, where its border must stand out. */
  outside: string;
  /** The border's contrast against what is outside it. */
  ratio: number;
}

interface RawBorder { where: string; focused: boolean; sides: Array<{ width: number; style: string; color: string }>; layers: string[] }

/** Runs in the page: the computed colours of every visible match of each probe, with its backgrounds up the flat tree. */
function readTexts(probes: TextProbe[]): Array<{ probe: string; samples: Array<RawText | { where: string; missing: true }> }> {
  // Up the flat tree: into the slot a node is assigned to, and out of a shadow root to its host.
  const parentOf = (node: Element): Element | null => {
    if (node.assignedSlot) return node.assignedSlot;
    if (node.parentElement) return node.parentElement;
    const root = node.getRootNode();
    return root instanceof ShadowRoot ? root.host : null;
  };
  const describe = (node: Element) => `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${typeof node.className === 'string' && node.className.trim() ? `.${node.className.trim().split(/\s+/).join('.')}` : ''}`;
  return probes.map((probe) => ({
    probe: probe.name,
    samples: [...document.querySelectorAll(probe.selector)]
      .filter((host) => host.getClientRects().length > 0)
      .map((host) => {
        const target = probe.shadow ? host.shadowRoot?.querySelector(probe.shadow) : host;
        if (!target) return { where: describe(host), missing: true as const };
        const style = getComputedStyle(target);
        const layers: string[] = [];
        let opacity = 1;
        for (let node: Element | null = target; node; node = parentOf(node)) {
          const s = getComputedStyle(node);
          layers.push(s.backgroundColor);
          opacity *= Number(s.opacity);
        }
        const text = probe.shadow ? ((target as HTMLInputElement).value ?? target.textContent ?? '') : (host as HTMLElement).innerText;
        return { where: describe(host), text: text.trim().replace(/\s+/g, ' ').slice(0, 70), color: style.color, layers, fontSize: parseFloat(style.fontSize), fontWeight: Number(style.fontWeight) || 400, opacity };
      }),
  }));
}

/** Runs in the page: the four borders of every visible match (or of the part of its shadow root that draws them). */
function readBorders(targets: Array<{ selector: string; shadow?: string }>): RawBorder[] {
  const parentOf = (node: Element): Element | null => {
    if (node.assignedSlot) return node.assignedSlot;
    if (node.parentElement) return node.parentElement;
    const root = node.getRootNode();
    return root instanceof ShadowRoot ? root.host : null;
  };
  const out: RawBorder[] = [];
  for (const { selector, shadow } of targets) {
    for (const host of document.querySelectorAll(selector)) {
      if (host.getClientRects().length === 0) continue;
      const target = shadow ? host.shadowRoot?.querySelector(shadow) : host;
      if (!target) throw new Error(`${selector} has no ${shadow ?? ''}`);
      const style = getComputedStyle(target);
      const sides = (['top', 'right', 'bottom', 'left'] as const).map((side) => ({
        width: parseFloat(style.getPropertyValue(`border-${side}-width`)),
        style: style.getPropertyValue(`border-${side}-style`),
        color: style.getPropertyValue(`border-${side}-color`),
      }));
      // What is around the control: the background outside its host (the host itself may be painted, a button is).
      const layers: string[] = [];
      for (let node = parentOf(host); node; node = parentOf(node)) layers.push(getComputedStyle(node).backgroundColor);
      out.push({ where: `${host.tagName.toLowerCase()}${host.id ? `#${host.id}` : ''}${host.textContent?.trim() ? ` "${host.textContent.trim().slice(0, 30)}"` : ''}`, focused: host.matches(':focus-within'), sides, layers });
    }
  }
  return out;
}

/** The contrast of every probed text on the page; a probe that matches nothing visible is an error. */
export async function textContrast(page: Page, probes: TextProbe[]): Promise<TextSample[]> {
  const read = await page.evaluate(readTexts, probes);
  const samples: TextSample[] = [];
  for (const { probe, samples: raw } of read) {
    if (raw.length === 0) throw new Error(`nothing visible for "${probe}" (${probes.find((p) => p.name === probe)?.selector})`);
    for (const one of raw) {
      if ('missing' in one) throw new Error(`"${probe}": ${one.where} has no part to read the text from`);
      if (one.text === '') throw new Error(`"${probe}": ${one.where} shows no text`);
      const background = effectiveBackground(one.layers);
      samples.push({
        probe,
        where: one.where,
        text: one.text,
        color: toHex(parseColor(one.color)),
        background: toHex(background),
        ratio: contrastRatio(parseColor(one.color), background),
        required: isLargeText(one.fontSize, one.fontWeight) ? 3 : 4.5,
        opacity: one.opacity,
      });
    }
  }
  return samples;
}

export async function borders(page: Page, targets: Array<{ selector: string; shadow?: string }>): Promise<BorderSample[]> {
  return (await page.evaluate(readBorders, targets)).map((raw) => {
    const outside: Rgba = effectiveBackground(raw.layers);
    const first = raw.sides[0];
    return {
      where: raw.where,
      focused: raw.focused,
      sides: raw.sides,
      outside: toHex(outside),
      ratio: first ? contrastRatio(parseColor(first.color), outside) : 0,
    };
  });
}

export function formatSample(sample: TextSample): string {
  return `${sample.probe} [${sample.where}] "${sample.text}": ${sample.color} on ${sample.background} = ${sample.ratio.toFixed(2)}:1 (needs ${sample.required}:1)`;
}

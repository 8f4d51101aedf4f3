// Letters of other scripts drawn exactly like Latin ones (Unicode TR39's
// confusables, the subset that renders the same in the fonts VS Code uses):
// Cyrillic "Yеs" and Latin "Yes" are the same words to a reader. `SAME`
// holds only glyphs a reader cannot tell apart, because two labels that fold
// alike are treated as the same words (Answer Similar groups them). `NEAR`
// adds the ones that are merely close (Greek ν for v, I and l, 0 and O, rn
// and m): used only where folding more is the safe direction, when asking
// whether an agent's label could be taken for another (one of ours, or a
// sibling option).

const SAME: Readonly<Record<string, string>> = {
  // Cyrillic capitals
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', У: 'Y', Ү: 'Y', І: 'I', Ј: 'J', Ѕ: 'S', Ԛ: 'Q', Ԝ: 'W', Ӏ: 'I',
  // Cyrillic small letters
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l', ү: 'y',
  // Greek capitals
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  // Greek small letters, Armenian, Latin variants
  ο: 'o', ϲ: 'c', ϳ: 'j', օ: 'o', ս: 'u', ı: 'i', ȷ: 'j',
};

/**
 * Letters drawn like a Latin one at a glance (TR39's confusables for them):
 * small capitals ("ᴀᴇᴘ"), Cherokee (as lower-cased: "Ꭺ" reads "ꭺ" in a key),
 * Lisu capitals, Cyrillic т and Greek τ, Armenian ո, ø.
 */
const NEAR_LETTERS: Readonly<Record<string, string>> = {
  a: 'ᴀꭺꓮ', b: 'ʙᏼꓐ', c: 'ᴄꮯꓚ', d: 'ᴅꭰꓓ', e: 'ᴇꭼꓰ', f: 'ꜰꓝ', g: 'ɢꓖ', h: 'ʜꮋꓧ', i: 'ɪꭵꓲ', j: 'ᴊꭻꓙ', k: 'ᴋꮶꓗ', l: 'ʟꮮꓡ', m: 'ᴍꮇꓟ',
  n: 'ɴꓠո', o: 'ᴏꮎꮻꓳø', p: 'ᴘꮲꓑ', r: 'ʀꮢꓣ', s: 'ꜱꮪꓢ', t: 'ᴛꭲꓔтτ', u: 'ᴜꓴ', v: 'ᴠꮩꓦ', w: 'ᴡꮃꓪ', x: 'ꓫ', y: 'ʏꓬ', z: 'ᴢꮓꓜ',
};
const NEAR_LETTER: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(NEAR_LETTERS).flatMap(([latin, like]) => [...like].map((ch) => [ch, latin])));
const NEAR_LETTER_CHARS = new RegExp(`[${Object.values(NEAR_LETTERS).join('')}]`, 'gu');

/** Close, not identical: folded only where more folding is the safe side. Applied to a lower-cased key. */
const NEAR: ReadonlyArray<[RegExp, string]> = [
  [/[αɑάàáâäãåāą]/gu, 'a'],
  [/[ɡ]/gu, 'g'],
  [/[ιíìîïīįl1|!]/gu, 'i'],
  [/[ν]/gu, 'v'],
  [/[κ]/gu, 'k'],
  [/[ρ]/gu, 'p'],
  [/[υ]/gu, 'u'],
  [/[χ]/gu, 'x'],
  [/[0ºσ]/gu, 'o'],
  [/[éèêëēę]/gu, 'e'],
  [/rn/gu, 'm'],
  [/vv/gu, 'w'],
];
const SAME_CHARS = new RegExp(`[${Object.keys(SAME).join('')}]`, 'gu');

/** `text` with every letter drawn like a Latin one written as that Latin letter. */
export function foldSameLooking(text: string): string {
  return text.replace(SAME_CHARS, (ch) => SAME[ch] ?? ch);
}

/** A lower-cased key folded further, so letters merely close to each other are one. */
export function foldNearLooking(key: string): string {
  let out = key.replace(NEAR_LETTER_CHARS, (ch) => NEAR_LETTER[ch] ?? ch);
  for (const [pattern, replacement] of NEAR) out = out.replace(pattern, replacement);
  return out;
}

// Crockford base32, as ULID specifies. The alphabet is 32 symbols, so one
// random byte masked to 5 bits is uniform.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID (AEP-0001 §5.1 #2 recommends them for event ids): 48 bits of
 * millisecond time then 80 random bits from the platform CSPRNG. Works in the
 * extension host and in a webview alike.
 */
export function ulid(now: number = Date.now()): string {
  let time = '';
  let t = Math.floor(now);
  for (let i = 0; i < 10; i++) {
    time = ALPHABET.charAt(t % 32) + time;
    t = Math.floor(t / 32);
  }
  const random = new Uint8Array(16);
  globalThis.crypto.getRandomValues(random);
  let tail = '';
  for (const byte of random) tail += ALPHABET.charAt(byte & 31);
  return time + tail;
}

// SHA-512 crypt ("$6$", Ulrich Drepper's "Unix crypt using SHA-256 and SHA-512", the scheme of
// glibc's crypt(3) and of /etc/shadow on every current distribution). The agent hashes a
// container's password itself, so only the hash is ever written for the container's init.
import { createHash, hash, randomBytes } from 'node:crypto';

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DEFAULT_ROUNDS = 5000;

function sha512(...parts: Buffer[]): Buffer {
  const hash = createHash('sha512');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** `length` bytes of `digest` repeated (the P and S sequences of the scheme). */
function repeatTo(digest: Buffer, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += 64) digest.copy(out, i, 0, Math.min(64, length - i));
  return out;
}

// The order in which the final digest's bytes are encoded, three at a time.
const ORDER = [
  [0, 21, 42],
  [22, 43, 1],
  [44, 2, 23],
  [3, 24, 45],
  [25, 46, 4],
  [47, 5, 26],
  [6, 27, 48],
  [28, 49, 7],
  [50, 8, 29],
  [9, 30, 51],
  [31, 52, 10],
  [53, 11, 32],
  [12, 33, 54],
  [34, 55, 13],
  [56, 14, 35],
  [15, 36, 57],
  [37, 58, 16],
  [59, 17, 38],
  [18, 39, 60],
  [40, 61, 19],
  [62, 20, 41],
] as const;

function encode24(b2: number, b1: number, b0: number, chars: number): string {
  let w = (b2 << 16) | (b1 << 8) | b0;
  let out = '';
  for (let i = 0; i < chars; i++) {
    out += ITOA64[w & 0x3f];
    w >>= 6;
  }
  return out;
}

/**
 * The crypt(3) string of `password` with `salt` (at most 16 characters are used; a random one
 * when absent). `rounds` other than 5000 is written into the result as `rounds=N$`.
 */
export function sha512Crypt(password: string, salt?: string, rounds = DEFAULT_ROUNDS): string {
  if (!Number.isInteger(rounds) || rounds < 1000 || rounds > 999_999_999) {
    throw new Error('sha512Crypt: rounds must be 1000..999999999');
  }
  const saltText = (salt ?? randomSalt()).slice(0, 16);
  if (/[$:\n]/.test(saltText)) throw new Error('sha512Crypt: the salt may not hold $, : or a newline');
  const p = Buffer.from(password, 'utf8');
  const s = Buffer.from(saltText, 'utf8');

  const b = sha512(p, s, p);
  const a = createHash('sha512').update(p).update(s);
  let n = p.length;
  for (; n > 64; n -= 64) a.update(b);
  a.update(b.subarray(0, n));
  for (let bits = p.length; bits > 0; bits >>= 1) a.update(bits & 1 ? b : p);
  let c = a.digest();

  const dp = createHash('sha512');
  for (let i = 0; i < p.length; i++) dp.update(p);
  const pSeq = repeatTo(dp.digest(), p.length);
  const ds = createHash('sha512');
  for (let i = 0; i < 16 + c[0]!; i++) ds.update(s);
  const sSeq = repeatTo(ds.digest(), s.length);

  // The rounds hash one buffer each (node:crypto's one-shot hash is several times faster than a
  // Hash object per round; a start waits for this).
  const input = Buffer.alloc(64 + sSeq.length + 2 * pSeq.length);
  for (let i = 0; i < rounds; i++) {
    let n = (i & 1 ? pSeq : c).copy(input, 0);
    if (i % 3 !== 0) n += sSeq.copy(input, n);
    if (i % 7 !== 0) n += pSeq.copy(input, n);
    n += (i & 1 ? c : pSeq).copy(input, n);
    c = hash('sha512', input.subarray(0, n), 'buffer');
  }

  let encoded = '';
  for (const [x, y, z] of ORDER) encoded += encode24(c[x]!, c[y]!, c[z]!, 4);
  encoded += encode24(0, 0, c[63]!, 2);
  const roundsPart = rounds === DEFAULT_ROUNDS ? '' : `rounds=${rounds}$`;
  return `$6$${roundsPart}${saltText}$${encoded}`;
}

function randomSalt(): string {
  return [...randomBytes(16)].map((byte) => ITOA64[byte & 0x3f]).join('');
}

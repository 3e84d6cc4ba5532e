/** Validation of the profile's SSH public keys (OpenSSH authorized_keys lines, no options). */
export const SSH_KEY_MAX_LENGTH = 2048;

export const MSG_SSH_KEY_TOO_LONG = 'SSH公钥不能超过2048个字符';

const ECDSA_CURVES: Record<string, { curve: string; pointBytes: number }> = {
  'ecdsa-sha2-nistp256': { curve: 'nistp256', pointBytes: 65 },
  'ecdsa-sha2-nistp384': { curve: 'nistp384', pointBytes: 97 },
  'ecdsa-sha2-nistp521': { curve: 'nistp521', pointBytes: 133 },
};

/** Reads the SSH wire format (RFC 4251): uint32 length-prefixed strings. */
class WireReader {
  private offset = 0;
  constructor(private readonly buf: Buffer) {}

  string(): Buffer {
    if (this.offset + 4 > this.buf.length) throw new Error('truncated length');
    const length = this.buf.readUInt32BE(this.offset);
    this.offset += 4;
    if (this.offset + length > this.buf.length) throw new Error('truncated data');
    const out = this.buf.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  text(): string {
    return this.string().toString('latin1');
  }

  done(): boolean {
    return this.offset === this.buf.length;
  }
}

function rsaBits(modulus: Buffer): number {
  let i = 0;
  while (i < modulus.length && modulus[i] === 0) i++;
  if (i === modulus.length) return 0;
  return (modulus.length - i - 1) * 8 + (32 - Math.clz32(modulus[i] as number));
}

/** Checks that the blob's fields match the key type it says it is. */
function checkBlob(type: string, blob: Buffer): boolean {
  const r = new WireReader(blob);
  if (r.text() !== type) return false;
  if (type === 'ssh-ed25519') {
    if (r.string().length !== 32) return false;
  } else if (type === 'ssh-rsa') {
    const e = r.string();
    const n = r.string();
    if (e.length === 0 || rsaBits(n) < 1024) return false;
  } else if (type in ECDSA_CURVES) {
    const { curve, pointBytes } = ECDSA_CURVES[type] as { curve: string; pointBytes: number };
    if (r.text() !== curve) return false;
    const q = r.string();
    if (q.length !== pointBytes || q[0] !== 0x04) return false;
  } else if (type === 'sk-ssh-ed25519@openssh.com') {
    if (r.string().length !== 32) return false;
    if (r.text().length === 0) return false; // application, e.g. "ssh:"
  } else if (type === 'sk-ecdsa-sha2-nistp256@openssh.com') {
    if (r.text() !== 'nistp256') return false;
    const q = r.string();
    if (q.length !== 65 || q[0] !== 0x04) return false;
    if (r.text().length === 0) return false;
  } else {
    return false;
  }
  return r.done();
}

const SUPPORTED = new Set([
  'ssh-ed25519',
  'ssh-rsa',
  ...Object.keys(ECDSA_CURVES),
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
]);

/** True when `line` is `<type> <base64 blob> [comment]` and the blob really is a key of that type. */
export function isOpenSshPublicKey(line: string): boolean {
  const [type, data] = line.trim().split(/\s+/, 3);
  if (!type || !data || !SUPPORTED.has(type)) return false;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data) || data.length % 4 !== 0) return false;
  const blob = Buffer.from(data, 'base64');
  if (blob.toString('base64') !== data) return false;
  try {
    return checkBlob(type, blob);
  } catch {
    // A truncated blob is simply not a key.
    return false;
  }
}

/** The Chinese reason the text is refused, or null when every non-empty line is a valid key. */
export function sshKeyProblem(text: string): string | null {
  if (text.length > SSH_KEY_MAX_LENGTH) return MSG_SSH_KEY_TOO_LONG;
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    if (!isOpenSshPublicKey(line)) {
      return `第${index + 1}行不是有效的SSH公钥（支持 ssh-ed25519、ssh-rsa、ecdsa-sha2-*、sk-*）`;
    }
  }
  return null;
}

/** The text as stored: trimmed lines, empty lines dropped, Windows line ends normalised. */
export function normaliseSshKeys(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

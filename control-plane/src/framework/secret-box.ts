import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** How many opened secrets a box remembers (the oldest is forgotten first beyond it). */
const OPENED_MAX = 10_000;

/**
 * AES-256-GCM for secrets the platform must show again (container passwords). What `open` found
 * is remembered by the sealed text: a sealed text always opens to the same plain text (GCM
 * authenticates it under this key), so the container list does not decrypt every password on
 * every request.
 */
export class SecretBox {
  private readonly opened = new Map<string, string>();

  constructor(private readonly key: Buffer) {}

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      'v1',
      iv.toString('base64'),
      cipher.getAuthTag().toString('base64'),
      data.toString('base64'),
    ].join(':');
  }

  open(sealed: string): string {
    const known = this.opened.get(sealed);
    if (known !== undefined) return known;
    const plain = this.decrypt(sealed);
    if (this.opened.size >= OPENED_MAX) this.opened.delete(this.opened.keys().next().value as string);
    this.opened.set(sealed, plain);
    return plain;
  }

  private decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }
}

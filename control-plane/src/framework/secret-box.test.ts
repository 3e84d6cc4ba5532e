import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

describe('SecretBox', () => {
  it('opens what it sealed, again from memory, and never opens a tampered or foreign text', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('密码-1');
    expect(box.open(sealed)).toBe('密码-1');
    expect(box.open(sealed)).toBe('密码-1');
    const [v, iv, tag, data] = sealed.split(':') as [string, string, string, string];
    const flipped = Buffer.from(data, 'base64');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => box.open([v, iv, tag, flipped.toString('base64')].join(':'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    expect(() => box.open('v2:x:y:z')).toThrow('unknown secret format');
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dropbearEcdsaKey, dropbearEd25519Key, dropbearHostKeys } from './host-keys.js';

// Dropbear's own tools (Debian's dropbear-bin) read the files, and OpenSSH's ssh-keygen derives
// the public key from the private one after dropbearconvert: a key whose halves disagree fails.
const DROPBEARKEY = '/usr/bin/dropbearkey';
const DROPBEARCONVERT = '/usr/bin/dropbearconvert';
const SSH_KEYGEN = '/usr/bin/ssh-keygen';

describe('Dropbear host keys made by the agent', () => {
  const missing = [DROPBEARKEY, DROPBEARCONVERT, SSH_KEYGEN].filter((p) => !existsSync(p));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-hostkeys-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const check = (name: string, key: Buffer, type: string) => {
    if (missing.length > 0) {
      throw new Error(`needs ${missing.join(', ')} (apt-get install dropbear-bin openssh-client)`);
    }
    const file = path.join(dir, name);
    writeFileSync(file, key, { mode: 0o600 });
    const stored = execFileSync(DROPBEARKEY, ['-y', '-f', file], { encoding: 'utf8' });
    const publicLine = stored.split('\n').find((l) => l.startsWith(`${type} `));
    expect(publicLine, stored).toBeDefined();
    execFileSync(DROPBEARCONVERT, ['dropbear', 'openssh', file, `${file}.openssh`], { stdio: 'pipe' });
    const derived = execFileSync(SSH_KEYGEN, ['-y', '-f', `${file}.openssh`], { encoding: 'utf8' });
    expect(derived.trim().split(' ').slice(0, 2)).toEqual(publicLine?.split(' ').slice(0, 2));
  };

  it('an Ed25519 key Dropbear reads, whose public half matches its private half', () => {
    check('ed25519', dropbearEd25519Key(), 'ssh-ed25519');
  });

  it('ECDSA P-256 keys Dropbear reads, whatever the high bit of the private scalar', () => {
    // About half of the scalars need the mpint's sign byte: a few keys cover both forms.
    for (let i = 0; i < 8; i++) check(`ecdsa-${i}`, dropbearEcdsaKey(), 'ecdsa-sha2-nistp256');
  });

  it('new keys every time, under the names the init looks for', () => {
    const a = dropbearHostKeys();
    const b = dropbearHostKeys();
    expect(a.map(([name]) => name)).toEqual(['dropbear_ed25519_host_key', 'dropbear_ecdsa_host_key']);
    expect(a[0]?.[1].equals(b[0]?.[1] ?? Buffer.alloc(0))).toBe(false);
  });
});

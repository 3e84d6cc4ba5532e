import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isOpenSshPublicKey, normaliseSshKeys, sshKeyProblem } from './ssh-keys.js';

// Written by ssh-keygen (OpenSSH 9) on a developer machine.
const KEYGEN = {
  rsa: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQCrB6LEhrMMpH3rjeU87Jq/MfxobxAnIxRTdI87DMs4LfFjSEsehoAQfYNcWdizYBrGGfVTaK4A5Q+JC9kDCn11LAbj37fHfsrgLWaO1+gXIkhZeiIX3hUqarLLyv5SKNvk3XaASCPMdqoEYbnSRX+KfA1rjePWrzq96TqDg64Pm6TQeqphdZ1m0u1Sgk02aGeWClVGSFp03LSqfMiKHNX5LRhb4pTE4n/4S3frQY3YfA9ye5/JX5Gr0FUef0PNh+TvIcW0896miCB1ZGwjmcTFiBihgsWwMl7oBokfHWFp8HDkhuEePh83asc9c/AuFpkrcvZfXmzGLNv7XOTKtLO7 dev@laptop',
  p256: 'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBPEqdZ0KmGD96EWMjQB+7TbaA8p1ZGATwkgotnI4rf4jX3fsbjPyq1OmNQPpEH3l4a7A2UnyeORk1E4s6UwjZuY= dev@laptop',
  p384: 'ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBGrdEaG6WLsjc4x+VPHsdXAkTTvGHhUoTFmqXzbkqcz98g6FNQmRDQSAGCDuZiHYH2P4hAS+JFV9VytcKnriObPlcgVtRtm1O32nTRut6g0EWoikmTh6mg4lwCdtJ6WxKA== dev@laptop',
  p521: 'ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjEAAACFBAHAeA7x0vrPCncQH1ka91G8sg+gIXY4iTaTslhLSdoK2kGOrkV5H83cUKcX/Giesae8SzzLi8iTbqH9sLdcWYzeSQFGaFjCPT2+kL06wBf7O6c9zLeFcInV95kaAydVKmVtASnFXpbbz0XZnxcKfoyHX+pwQpEiwZYyWXNMGDCYrz55Bg== dev@laptop',
  ed25519: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICXHolNn+JKZJRzasK3dTGU3ghBkiC2UzaYmnGHYOSKk dev@laptop',
};

/** SSH wire-format strings, to build blobs the way OpenSSH writes them. */
const wire = (...parts: (string | Buffer)[]) =>
  Buffer.concat(
    parts.map((p) => {
      const data = typeof p === 'string' ? Buffer.from(p) : p;
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      return Buffer.concat([length, data]);
    }),
  );
const line = (type: string, blob: Buffer, comment = '') =>
  `${type} ${blob.toString('base64')}${comment ? ` ${comment}` : ''}`;

function freshEd25519(): Buffer {
  const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  return Buffer.from(jwk.x as string, 'base64url');
}

describe('SSH public keys of the profile', () => {
  it('accepts what ssh-keygen writes: ed25519, RSA and ECDSA on all three curves', () => {
    for (const key of Object.values(KEYGEN)) expect(isOpenSshPublicKey(key), key.slice(0, 24)).toBe(true);
  });

  it('accepts security-key types (sk-ssh-ed25519, sk-ecdsa-sha2-nistp256)', () => {
    const ed = line('sk-ssh-ed25519@openssh.com', wire('sk-ssh-ed25519@openssh.com', freshEd25519(), 'ssh:'));
    expect(isOpenSshPublicKey(ed)).toBe(true);
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const point = Buffer.concat([
      Buffer.from([4]),
      Buffer.from(jwk.x as string, 'base64url'),
      Buffer.from(jwk.y as string, 'base64url'),
    ]);
    const ec = line(
      'sk-ecdsa-sha2-nistp256@openssh.com',
      wire('sk-ecdsa-sha2-nistp256@openssh.com', 'nistp256', point, 'ssh:'),
    );
    expect(isOpenSshPublicKey(ec)).toBe(true);
  });

  it('refuses a blob whose inner type differs from the label, truncated blobs, bad base64 and other types', () => {
    const edBlob = KEYGEN.ed25519.split(' ')[1] as string;
    expect(isOpenSshPublicKey(`ssh-rsa ${edBlob}`)).toBe(false);
    expect(isOpenSshPublicKey(`ecdsa-sha2-nistp384 ${KEYGEN.p256.split(' ')[1] as string}`)).toBe(false);
    expect(isOpenSshPublicKey(line('ssh-ed25519', wire('ssh-ed25519', Buffer.alloc(31))))).toBe(false);
    expect(isOpenSshPublicKey(line('ssh-ed25519', Buffer.from(edBlob, 'base64').subarray(0, 40)))).toBe(
      false,
    );
    expect(isOpenSshPublicKey(line('ssh-ed25519', wire('ssh-ed25519', freshEd25519(), 'trailing')))).toBe(
      false,
    );
    expect(isOpenSshPublicKey('ssh-ed25519 not*base64')).toBe(false);
    expect(isOpenSshPublicKey('ssh-dss AAAAB3NzaC1kc3MAAACBAP')).toBe(false);
    expect(isOpenSshPublicKey('-----BEGIN OPENSSH PRIVATE KEY-----')).toBe(false);
    // RSA below 1024 bits is refused (OpenSSH refuses it too).
    expect(
      isOpenSshPublicKey(line('ssh-rsa', wire('ssh-rsa', Buffer.from([1, 0, 1]), Buffer.alloc(64, 0xff)))),
    ).toBe(false);
  });

  it('checks every line, names the bad one, and limits the text to 2048 characters', () => {
    const two = `${KEYGEN.ed25519}\n\n${KEYGEN.p256}\r\n`;
    expect(sshKeyProblem(two)).toBeNull();
    expect(normaliseSshKeys(two)).toBe(`${KEYGEN.ed25519}\n${KEYGEN.p256}`);
    expect(sshKeyProblem(`${KEYGEN.ed25519}\nhello`)).toMatch(/^第2行不是有效的SSH公钥/);
    expect(sshKeyProblem(`${KEYGEN.rsa}\n`.repeat(6))).toBe('SSH公钥不能超过2048个字符');
    expect(sshKeyProblem('')).toBeNull();
  });
});

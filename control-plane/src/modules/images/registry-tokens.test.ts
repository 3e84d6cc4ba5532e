import { createPublicKey, randomBytes, verify, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { libtrustKeyId, registryKeys } from './registry-keys.js';
import { grantedAccess, parseScopes, signGrant, signToken, verifyGrant } from './registry-tokens.js';

const secret = randomBytes(32);
const keys = registryKeys(secret);
const grant = (actions: Array<'pull' | 'push'>, expiresAt = Date.now() + 60_000) => ({
  repository: 'u1/img1',
  actions,
  expiresAt,
});

describe('the registry keys', () => {
  it('are the same for the same SECRET_KEY (replicas and restarts agree) and differ for another', () => {
    const again = registryKeys(Buffer.from(secret));
    expect(again.keyId).toBe(keys.keyId);
    expect(again.grantKey.equals(keys.grantKey)).toBe(true);
    expect(again.httpSecret).toBe(keys.httpSecret);
    const other = registryKeys(randomBytes(32));
    expect(other.keyId).not.toBe(keys.keyId);
    expect(other.grantKey.equals(keys.grantKey)).toBe(false);
  });

  it('announce the signing key in a self-signed certificate, named by its libtrust key id', () => {
    const cert = new X509Certificate(keys.certificatePem);
    expect(cert.subject).toContain('gpucloud registry token signer');
    expect(cert.checkIssued(cert)).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    const publicKey = createPublicKey(keys.signingKey);
    expect(cert.publicKey.export({ type: 'spki', format: 'der' })).toEqual(
      publicKey.export({ type: 'spki', format: 'der' }),
    );
    // 12 groups of 4 base32 characters, as libtrust writes it.
    expect(keys.keyId).toMatch(/^[A-Z2-7]{4}(:[A-Z2-7]{4}){11}$/);
    expect(libtrustKeyId(publicKey)).toBe(keys.keyId);
  });
});

describe('grants', () => {
  it('verify when untouched and unexpired', () => {
    const checked = verifyGrant(keys.grantKey, signGrant(keys.grantKey, grant(['pull', 'push'])));
    expect(checked).toMatchObject({ ok: true, grant: { repository: 'u1/img1', actions: ['pull', 'push'] } });
  });

  it('are refused expired, tampered, signed with another key or malformed', () => {
    expect(verifyGrant(keys.grantKey, signGrant(keys.grantKey, grant(['pull'], Date.now() - 1)))).toEqual({
      ok: false,
      reason: 'expired',
    });
    const [v, payload, mac] = signGrant(keys.grantKey, grant(['pull'])).split('.') as [
      string,
      string,
      string,
    ];
    const widened = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), a: ['pull', 'push'] }),
    ).toString('base64url');
    for (const password of [
      `${v}.${widened}.${mac}`,
      signGrant(randomBytes(32), grant(['pull'])),
      `${v}.${payload}`,
      `${v}.${payload}.${mac}.x`,
      'v2.x.y',
      '',
      'password',
    ])
      expect(verifyGrant(keys.grantKey, password), password).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('scopes and access', () => {
  it('parses repeated and space-separated scopes, dropping malformed ones', () => {
    expect(
      parseScopes([
        'repository:u1/img1:pull,push',
        'registry:catalog:* repository:u2/img2:pull',
        'nonsense',
        'a:b',
      ]),
    ).toEqual([
      { type: 'repository', name: 'u1/img1', actions: ['pull', 'push'] },
      { type: 'registry', name: 'catalog', actions: ['*'] },
      { type: 'repository', name: 'u2/img2', actions: ['pull'] },
    ]);
  });

  it('grants the intersection of the grant and the request, never the catalog, *, delete or another repository', () => {
    const g = grant(['pull', 'push']);
    expect(grantedAccess(g, parseScopes(['repository:u1/img1:pull,push,delete,*']))).toEqual([
      { type: 'repository', name: 'u1/img1', actions: ['pull', 'push'] },
    ]);
    expect(grantedAccess(grant(['pull']), parseScopes(['repository:u1/img1:pull,push']))).toEqual([
      { type: 'repository', name: 'u1/img1', actions: ['pull'] },
    ]);
    expect(grantedAccess(g, parseScopes(['repository:u1/img10:pull', 'repository:u1/img1/x:pull']))).toEqual(
      [],
    );
    expect(grantedAccess(g, parseScopes(['registry:catalog:*']))).toEqual([]);
    expect(grantedAccess(g, [])).toEqual([]);
  });
});

describe('tokens', () => {
  it('are ES256 JWTs with the libtrust key id, for the registry service, verifiable with the public key', () => {
    const now = Date.now();
    const { token, expiresIn } = signToken(keys, {
      subject: 's',
      access: [{ type: 'repository', name: 'u1/img1', actions: ['pull'] }],
      now,
    });
    const [header, body, signature] = token.split('.') as [string, string, string];
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({
      typ: 'JWT',
      alg: 'ES256',
      kid: keys.keyId,
    });
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    expect(claims).toMatchObject({ iss: 'gpucloud', aud: 'gpucloud-registry', sub: 's' });
    expect(claims.exp - claims.iat).toBe(expiresIn);
    const raw = Buffer.from(signature, 'base64url');
    expect(raw).toHaveLength(64);
    expect(
      verify(
        'sha256',
        Buffer.from(`${header}.${body}`),
        { key: createPublicKey(keys.signingKey), dsaEncoding: 'ieee-p1363' },
        raw,
      ),
    ).toBe(true);
  });
});

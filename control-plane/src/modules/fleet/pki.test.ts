import { execFileSync } from 'node:child_process';
import { randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as x509 from '@peculiar/x509';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../framework/secret-box.js';
import { type CaStore, CsrError, PlatformPki, parseAgentCsr } from './pki.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-pki-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function memoryStore(): CaStore & { row: { certificate_pem: string; key_sealed: string } | undefined } {
  return {
    row: undefined,
    async insertIfAbsent(ca) {
      this.row ??= ca;
    },
    async read() {
      return this.row;
    },
  };
}

async function csrOf(
  algorithm: webcrypto.EcKeyGenParams | webcrypto.RsaHashedKeyGenParams,
  signing: webcrypto.AlgorithmIdentifier | webcrypto.EcdsaParams,
) {
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: 'CN=joining-host',
    keys,
    signingAlgorithm: signing,
  });
  return { pem: csr.toString('pem'), keys };
}

const P256 = { name: 'ECDSA', namedCurve: 'P-256' };
const ES256 = { name: 'ECDSA', hash: 'SHA-256' };

function openssl(...args: string[]): string {
  return execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' }).toString();
}

describe('the platform PKI', () => {
  const log = () => {};

  it('makes the CA once: a second replica on the same store uses the first one’s', async () => {
    const store = memoryStore();
    const secrets = new SecretBox(randomBytes(32));
    const a = new PlatformPki({ store, secrets, log });
    const b = new PlatformPki({ store, secrets, log });
    await a.start();
    await b.start();
    a.stop();
    b.stop();
    expect(a.caCertificatePem).toBeDefined();
    expect(b.caCertificatePem).toBe(a.caCertificatePem);
    // The key is sealed, never stored in the clear.
    expect(store.row?.key_sealed).not.toContain('PRIVATE KEY');
    const ca = new X509Certificate(a.caCertificatePem as string);
    expect(ca.subject).toBe('CN=gpucloud platform CA');
    expect(ca.ca).toBe(true);
    const years = (Date.parse(ca.validTo) - Date.parse(ca.validFrom)) / (365 * 24 * 3600_000);
    expect(years).toBeGreaterThan(9.9);
    expect(ca.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
  });

  it('is unavailable (nothing signed, no client certificate) with another SECRET_KEY', async () => {
    const store = memoryStore();
    await new PlatformPki({ store, secrets: new SecretBox(randomBytes(32)), log }).start();
    const other = new PlatformPki({ store, secrets: new SecretBox(randomBytes(32)), log });
    await other.start();
    expect(other.available).toBe(false);
    expect(other.clientCredentials()).toBeUndefined();
    const { pem } = await csrOf(P256, ES256);
    await expect(other.signAgentCsr(pem, 1)).rejects.toThrow(/SECRET_KEY/);
  });

  it('signs an agent CSR: CN node-<id>, SAN node-<id>.gpucloud.internal, serverAuth, 90 days, chained to the CA', async () => {
    const pki = new PlatformPki({ store: memoryStore(), secrets: new SecretBox(randomBytes(32)), log });
    await pki.start();
    pki.stop();
    const { pem, keys } = await csrOf(P256, ES256);
    const signed = await pki.signAgentCsr(pem, 42);
    const cert = new X509Certificate(signed.certificatePem);
    expect(cert.subject).toBe('CN=node-42');
    expect(cert.subjectAltName).toBe('DNS:node-42.gpucloud.internal');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(cert.ca).toBe(false);
    const days = (Date.parse(cert.validTo) - Date.now()) / (24 * 3600_000);
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThan(90.1);
    expect(signed.expiresAt.getTime()).toBe(Date.parse(cert.validTo));
    // The certificate holds the agent's own key.
    const spki = Buffer.from(await webcrypto.subtle.exportKey('spki', keys.publicKey));
    expect(cert.publicKey.export({ type: 'spki', format: 'der' }).equals(spki)).toBe(true);
    expect(cert.verify(new X509Certificate(signed.caCertificatePem).publicKey)).toBe(true);
    // And openssl agrees it chains to the CA for a TLS server.
    writeFileSync(path.join(dir, 'ca.pem'), signed.caCertificatePem);
    writeFileSync(path.join(dir, 'agent.pem'), signed.certificatePem);
    expect(openssl('verify', '-purpose', 'sslserver', '-CAfile', 'ca.pem', 'agent.pem')).toContain('OK');
  });

  it('refuses a CSR with a bad signature, an RSA or P-384 key, or no CSR at all', async () => {
    const good = (await csrOf(P256, ES256)).pem;
    const der = Buffer.from(good.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    // The last bytes are the signature's: flip one bit.
    der[der.length - 3] = (der[der.length - 3] as number) ^ 0x01;
    const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    await expect(parseAgentCsr(tampered)).rejects.toThrow('证书签名请求（CSR）的签名无效');
    const rsa = await csrOf(
      {
        name: 'RSASSA-PKCS1-v1_5',
        hash: 'SHA-256',
        publicExponent: new Uint8Array([1, 0, 1]),
        modulusLength: 2048,
      },
      { name: 'RSASSA-PKCS1-v1_5' },
    );
    await expect(parseAgentCsr(rsa.pem)).rejects.toThrow('证书签名请求的密钥必须是 ECDSA P-256');
    const p384 = await csrOf({ name: 'ECDSA', namedCurve: 'P-384' }, { name: 'ECDSA', hash: 'SHA-384' });
    await expect(parseAgentCsr(p384.pem)).rejects.toThrow(CsrError);
    await expect(parseAgentCsr('not a csr')).rejects.toThrow('证书签名请求（CSR）格式无效');
    await expect(parseAgentCsr(good)).resolves.toBeDefined();
  });

  it('makes its client certificate (clientAuth, 30 days) and a new one after two thirds of its life', async () => {
    let now = Date.now();
    const pki = new PlatformPki({
      store: memoryStore(),
      secrets: new SecretBox(randomBytes(32)),
      log,
      now: () => now,
      checkIntervalMs: 3600_000,
    });
    let renewed = 0;
    pki.onClientRenewed(() => renewed++);
    await pki.start();
    pki.stop();
    const first = pki.clientCredentials();
    expect(first?.generation).toBe(1);
    const cert = new X509Certificate(first?.cert as Buffer);
    expect(cert.subject).toBe('CN=gpucloud-control-plane');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(
      cert.checkPrivateKey(await import('node:crypto').then((c) => c.createPrivateKey(first?.key as Buffer))),
    ).toBe(true);
    const days = (Date.parse(cert.validTo) - now) / (24 * 3600_000);
    expect(Math.round(days)).toBe(30);
    now += 19 * 24 * 3600_000;
    expect(await pki.renewClientIfDue()).toBe(false);
    now += 2 * 24 * 3600_000;
    expect(await pki.renewClientIfDue()).toBe(true);
    expect(pki.clientCredentials()?.generation).toBe(2);
    expect(pki.clientCredentials()?.cert.equals(first?.cert as Buffer)).toBe(false);
    expect(renewed).toBe(2);
  });
});

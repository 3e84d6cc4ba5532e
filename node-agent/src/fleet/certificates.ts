// The agent's side of the platform PKI (issue 19): its own ECDSA P-256 key (it never leaves the
// host), certificate signing requests, checks of a signed certificate, and the files written
// atomically (a file watcher serves them: it must never read half a file).
import { createPrivateKey, createPublicKey, randomBytes, type webcrypto } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(globalThis.crypto);

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** A fresh key and its signing request. */
export interface KeyAndRequest {
  /** PKCS#8 PEM of the private key. */
  keyPem: string;
  /** DER SubjectPublicKeyInfo of the public key (compared with a certificate's). */
  spki: Buffer;
  csrPem: string;
}

/** A new P-256 key and a PKCS#10 request for it, subject CN = `commonName`. */
export async function newKeyAndRequest(commonName: string): Promise<KeyAndRequest> {
  const keys = (await crypto.subtle.generateKey(EC_P256, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [{ CN: [commonName] }],
    keys,
    signingAlgorithm: SIGNING,
  });
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', keys.privateKey);
  const spki = await crypto.subtle.exportKey('spki', keys.publicKey);
  return {
    keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY'),
    spki: Buffer.from(spki),
    csrPem: csr.toString('pem'),
  };
}

/** The DER SubjectPublicKeyInfo of a PEM private key. */
export function spkiOfPrivateKey(keyPem: string): Buffer {
  return createPublicKey(createPrivateKey(keyPem)).export({ type: 'spki', format: 'der' });
}

export class CertificateCheckError extends Error {}

/**
 * Checks that `certificatePem` is for the key `spki` (the pending one), is signed by `caPem`
 * and is valid now; returns the parsed certificate. Throws CertificateCheckError saying what is wrong.
 */
export async function checkCertificate(
  certificatePem: string,
  caPem: string,
  spki: Buffer,
): Promise<x509.X509Certificate> {
  let cert: x509.X509Certificate;
  let ca: x509.X509Certificate;
  try {
    cert = new x509.X509Certificate(certificatePem);
  } catch {
    throw new CertificateCheckError('证书不是有效的 PEM X.509 证书');
  }
  try {
    ca = new x509.X509Certificate(caPem);
  } catch {
    throw new CertificateCheckError('CA 证书不是有效的 PEM X.509 证书');
  }
  if (!Buffer.from(cert.publicKey.rawData).equals(spki)) {
    throw new CertificateCheckError('证书的公钥与本节点待签的密钥不符');
  }
  const signedByCa =
    cert.issuer === ca.subject && (await cert.verify({ publicKey: ca.publicKey, signatureOnly: true }));
  if (!signedByCa) throw new CertificateCheckError('证书不是由平台 CA 签发的');
  const now = Date.now();
  if (cert.notAfter.getTime() <= now || cert.notBefore.getTime() > now + 5 * 60_000) {
    throw new CertificateCheckError('证书不在有效期内');
  }
  return cert;
}

/** The subject's common name of a PEM certificate ('' when it has none). */
export function commonNameOf(certificatePem: string): string {
  const cert = new x509.X509Certificate(certificatePem);
  return cert.subjectName.getField('CN')[0] ?? '';
}

/** True when two PEM certificates are the same certificate. */
export function sameCertificate(a: string, b: string): boolean {
  try {
    return Buffer.from(new x509.X509Certificate(a).rawData).equals(
      Buffer.from(new x509.X509Certificate(b).rawData),
    );
  } catch {
    return false;
  }
}

/** Writes `file` through a temporary file and a rename, so a reader sees the old or the new file whole. */
export async function writeAtomic(file: string, content: string | Buffer, mode: number): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, 'wx', mode);
  try {
    await handle.writeFile(content);
    await handle.chmod(mode); // the umask may have narrowed (or widened) the mode given
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/**
 * The NOT_AFTER (Unix ms) of a PEM certificate file, read again only when the file changes
 * (mtime or size); 0 when there is none or it cannot be read.
 */
export class CertificateExpiry {
  private seen: { key: string; expires: number } | undefined;

  constructor(private readonly file: string | undefined) {}

  read(): number {
    if (!this.file || !existsSync(this.file)) return 0;
    try {
      const st = statSync(this.file);
      const key = `${st.mtimeMs}:${st.size}:${st.ino}`;
      if (this.seen?.key !== key) {
        const cert = new x509.X509Certificate(readFileSync(this.file, 'utf8'));
        this.seen = { key, expires: cert.notAfter.getTime() };
      }
      return this.seen.expires;
    } catch {
      return 0;
    }
  }
}

// The keys of the registry's token authentication, derived from SECRET_KEY: every replica and
// every restart computes the same ones, so a token one replica signs verifies at a registry
// another replica started, and nothing needs storing.
// - the token signing key: an ECDSA P-256 key (ES256 JWTs), announced to the registry by a
//   self-signed certificate (its `rootcertbundle`) and named in each token by its libtrust key
//   id (`kid`), which is how distribution 2.8 finds a trusted key;
// - the grant key: HMAC-SHA256 of the short-lived credentials handed to agents;
// - the registry's own http.secret (its upload state), the same for registries sharing storage.
import {
  createECDH,
  createHash,
  createPrivateKey,
  createPublicKey,
  hkdfSync,
  type KeyObject,
  sign,
} from 'node:crypto';

export interface RegistryKeys {
  signingKey: KeyObject;
  /** libtrust's fingerprint of the public key: the JWT header's `kid`. */
  keyId: string;
  /** PEM of a self-signed certificate of the signing key: the registry's rootcertbundle. */
  certificatePem: string;
  grantKey: Buffer;
  httpSecret: string;
}

/** The order of P-256: a private scalar is in [1, n-1]. */
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

const derive = (secretKey: Buffer, info: string, length = 32) =>
  Buffer.from(hkdfSync('sha256', secretKey, 'gpucloud registry', info, length));

const b64url = (data: Buffer) => data.toString('base64url');

function signingKeyFrom(secretKey: Buffer): KeyObject {
  for (let attempt = 0; ; attempt++) {
    const d = derive(secretKey, `token signing key ${attempt}`);
    const scalar = BigInt(`0x${d.toString('hex')}`);
    // Out of range once in 2^32 derivations: the next one is taken.
    if (scalar === 0n || scalar >= P256_ORDER) continue;
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(d);
    const point = ecdh.getPublicKey(); // 0x04 || x || y
    return createPrivateKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        d: b64url(d),
        x: b64url(point.subarray(1, 33)),
        y: b64url(point.subarray(33, 65)),
      },
      format: 'jwk',
    });
  }
}

/**
 * libtrust's key id (github.com/docker/libtrust keyIDFromCryptoKey): SHA-256 of the PKIX DER of
 * the public key, truncated to 240 bits, base32 without padding, in 12 groups of 4 joined by ':'.
 */
export function libtrustKeyId(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const digest = createHash('sha256').update(der).digest().subarray(0, 30);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let encoded = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      encoded += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return (encoded.match(/.{4}/g) ?? []).join(':');
}

// A minimal DER encoder: just what one self-signed certificate needs.
function der(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}
const sequence = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => der(0x31, Buffer.concat(parts));
const oid = (hex: string) => der(0x06, Buffer.from(hex, 'hex'));
const ECDSA_WITH_SHA256 = sequence(oid('2a8648ce3d040302')); // 1.2.840.10045.4.3.2
const COMMON_NAME = oid('550403'); // 2.5.4.3

/**
 * A self-signed X.509 v1 certificate of the signing key (a CA for nobody: distribution reads the
 * public key out of it). Its serial and validity are fixed, so only the signature differs
 * between replicas.
 */
function selfSignedCertificate(signingKey: KeyObject, serial: Buffer): string {
  const publicKey = createPublicKey(signingKey).export({ type: 'spki', format: 'der' });
  const name = sequence(set(sequence(COMMON_NAME, der(0x0c, Buffer.from('gpucloud registry token signer')))));
  const tbs = sequence(
    // A positive INTEGER: the leading 0x00 keeps the top bit clear.
    der(0x02, Buffer.concat([Buffer.from([0x01]), serial])),
    ECDSA_WITH_SHA256,
    name,
    sequence(der(0x17, Buffer.from('200101000000Z')), der(0x18, Buffer.from('99991231235959Z'))),
    name,
    publicKey,
  );
  const signature = sign('sha256', tbs, signingKey);
  const certificate = sequence(
    tbs,
    ECDSA_WITH_SHA256,
    der(0x03, Buffer.concat([Buffer.from([0]), signature])),
  );
  const base64 = certificate.toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN CERTIFICATE-----\n${base64.trimEnd()}\n-----END CERTIFICATE-----\n`;
}

export function registryKeys(secretKey: Buffer): RegistryKeys {
  const signingKey = signingKeyFrom(secretKey);
  return {
    signingKey,
    keyId: libtrustKeyId(createPublicKey(signingKey)),
    certificatePem: selfSignedCertificate(signingKey, derive(secretKey, 'certificate serial', 8)),
    grantKey: derive(secretKey, 'grant key'),
    httpSecret: derive(secretKey, 'registry http secret').toString('hex'),
  };
}

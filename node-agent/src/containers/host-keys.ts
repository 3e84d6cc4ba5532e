// SSH host keys for a container's Dropbear, made by the agent and staged with the access: the
// init copies them in at the first start instead of running dropbearkey, which a first start
// would otherwise wait on. Dropbear's own key file format (dropbear's signkey.c): the key type
// as an SSH string, then
//   ed25519:  string(seed[32] || public[32])
//   ecdsa:    string("nistp256"), string(Q = 04 || x || y), mpint(d)
// A container keeps the keys it got at its first start (they live in its own filesystem), so
// the fingerprint users accepted survives a stop/start or a recreate.
import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';

function sshString(data: Buffer | string): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** An SSH mpint of a positive big-endian number: no leading zeros, one added for the sign bit. */
function sshMpint(magnitude: Buffer): Buffer {
  let start = 0;
  while (start < magnitude.length && magnitude[start] === 0) start++;
  let bytes = magnitude.subarray(start);
  if (bytes.length > 0 && (bytes[0] as number) & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return sshString(bytes);
}

function jwkBytes(jwk: JsonWebKey, field: 'd' | 'x' | 'y'): Buffer {
  const value = jwk[field];
  if (typeof value !== 'string') throw new Error(`generated key lacks ${field}`);
  return Buffer.from(value, 'base64url');
}

export function dropbearEd25519Key(): Buffer {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  return Buffer.concat([
    sshString('ssh-ed25519'),
    sshString(Buffer.concat([jwkBytes(jwk, 'd'), jwkBytes(jwk, 'x')])),
  ]);
}

export function dropbearEcdsaKey(): Buffer {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), jwkBytes(jwk, 'x'), jwkBytes(jwk, 'y')]);
  return Buffer.concat([
    sshString('ecdsa-sha2-nistp256'),
    sshString('nistp256'),
    sshString(point),
    sshMpint(jwkBytes(jwk, 'd')),
  ]);
}

/** The files the init looks for, by the names Dropbear gives them. */
export function dropbearHostKeys(): Array<[name: string, content: Buffer]> {
  return [
    ['dropbear_ed25519_host_key', dropbearEd25519Key()],
    ['dropbear_ecdsa_host_key', dropbearEcdsaKey()],
  ];
}

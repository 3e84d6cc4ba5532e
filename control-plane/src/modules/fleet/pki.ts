// The platform's PKI (issue 19): one CA per database, made by the first replica to start and
// kept in platform_ca with its key sealed by SECRET_KEY; each replica's own client certificate
// (made at start, again before two thirds of its life); agent certificates signed from the
// agents' CSRs (their keys never leave their hosts). ECDSA P-256 throughout.
import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

x509.cryptoProvider.set(webcrypto as never);

const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 3600_000;

export const CA_SUBJECT = 'CN=gpucloud platform CA';
export const CLIENT_SUBJECT = 'CN=gpucloud-control-plane';
export const CA_LIFETIME_MS = 3650 * DAY_MS;
export const CLIENT_LIFETIME_MS = 30 * DAY_MS;
export const AGENT_LIFETIME_MS = 90 * DAY_MS;
/** Certificates start this long before they are made: a host whose clock is a little behind accepts them. */
const BACKDATE_MS = 5 * 60_000;
const EKU_SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const EKU_CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';

/** The name an agent's certificate is issued for, and the control plane checks when it dials. */
export function agentServerName(nodeId: number): string {
  return `node-${nodeId}.gpucloud.internal`;
}

/** A CSR the platform does not sign (its message is for the joining host's operator). */
export class CsrError extends Error {}

/** Where the CA lives: the fleet repository (platform_ca), or memory in unit tests. */
export interface CaStore {
  /** Stores this CA unless one is stored already (the first replica wins). */
  insertIfAbsent(ca: { certificate_pem: string; key_sealed: string }): Promise<void>;
  read(): Promise<{ certificate_pem: string; key_sealed: string } | undefined>;
}

/** SECRET_KEY's box (framework/secret-box.ts). */
export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** What a replica dials platform nodes with: the CA and its own client certificate (PEM). */
export interface PlatformClientCredentials {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
  /** Grows with every new client certificate: channels made with an older one are replaced. */
  generation: number;
}

function serialNumber(): string {
  const bytes = randomBytes(16);
  // Positive, and 16 bytes long whatever its value.
  bytes[0] = ((bytes[0] as number) & 0x7f) | 0x40;
  return bytes.toString('hex');
}

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64');
  return `-----BEGIN ${label}-----\n${b64.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;
}

function pemBody(text: string, label: string): ArrayBuffer {
  const match = new RegExp(`-----BEGIN ${label}-----([\\s\\S]+?)-----END ${label}-----`).exec(text);
  if (!match) throw new Error(`no ${label} in the PEM text`);
  const der = Buffer.from((match[1] as string).replace(/\s+/g, ''), 'base64');
  return new Uint8Array(der).buffer;
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
}

/** A new self-signed CA (10 years): its certificate and PKCS#8 key, PEM. */
export async function createCa(now = Date.now()): Promise<{ certificatePem: string; keyPem: string }> {
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: CA_SUBJECT,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + CA_LIFETIME_MS),
    signingAlgorithm: SIGNING,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { certificatePem: cert.toString('pem'), keyPem: pem('PRIVATE KEY', pkcs8) };
}

/**
 * The CSR of an agent's key, checked: PEM of one PKCS#10 request whose signature verifies with
 * its own key, an ECDSA P-256 key. Throws CsrError (Chinese) otherwise.
 */
export async function parseAgentCsr(csrPem: string): Promise<x509.Pkcs10CertificateRequest> {
  let csr: x509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(pemBody(csrPem, 'CERTIFICATE REQUEST'));
  } catch {
    throw new CsrError('证书签名请求（CSR）格式无效');
  }
  const algorithm = csr.publicKey.algorithm as { name?: string; namedCurve?: string };
  if (algorithm.name !== 'ECDSA' || algorithm.namedCurve !== 'P-256') {
    throw new CsrError('证书签名请求的密钥必须是 ECDSA P-256');
  }
  let valid = false;
  try {
    valid = await csr.verify();
  } catch {
    valid = false;
  }
  if (!valid) throw new CsrError('证书签名请求（CSR）的签名无效');
  return csr;
}

interface LoadedCa {
  cert: x509.X509Certificate;
  certificatePem: string;
  key: CryptoKey;
}

async function loadCa(certificatePem: string, keyPem: string): Promise<LoadedCa> {
  const key = await webcrypto.subtle.importKey(
    'pkcs8',
    pemBody(keyPem, 'PRIVATE KEY'),
    KEY_ALGORITHM,
    false,
    ['sign'],
  );
  return { cert: new x509.X509Certificate(certificatePem), certificatePem, key: key as CryptoKey };
}

async function issue(
  ca: LoadedCa,
  params: {
    subject: string;
    publicKey: CryptoKey | x509.PublicKey;
    lifetimeMs: number;
    eku: string;
    dnsName?: string;
    now: number;
  },
): Promise<x509.X509Certificate> {
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([params.eku], false),
    await x509.SubjectKeyIdentifierExtension.create(params.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(ca.cert),
  ];
  if (params.dnsName) {
    extensions.push(
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: params.dnsName }], false),
    );
  }
  return x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: params.subject,
    issuer: ca.cert.subjectName,
    notBefore: new Date(params.now - BACKDATE_MS),
    notAfter: new Date(params.now + params.lifetimeMs),
    signingAlgorithm: SIGNING,
    publicKey: params.publicKey,
    signingKey: ca.key,
    extensions,
  });
}

export interface PlatformPkiOptions {
  store: CaStore;
  secrets: Sealer;
  log: (message: string, err?: unknown) => void;
  now?: () => number;
  /** The client certificate's life (30 days); renewed after two thirds of it. */
  clientLifetimeMs?: number;
  /** How often the client certificate's age is checked (an hour, at most a tenth of its life). */
  checkIntervalMs?: number;
}

/**
 * The platform CA as this replica holds it, and this replica's client certificate. Until
 * `start` has loaded the CA (or when it could not: SECRET_KEY differs from the one that sealed
 * it) nothing is signed and platform nodes are not dialled.
 */
export class PlatformPki {
  private ca: LoadedCa | undefined;
  private client: PlatformClientCredentials | undefined;
  private clientValidity: { from: number; to: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;
  /** Why the CA is not available, when it is not. */
  unavailableReason: string | undefined = 'the platform CA is not loaded yet';

  constructor(private readonly d: PlatformPkiOptions) {
    this.now = d.now ?? Date.now;
  }

  /** Loads the CA (making it when the database has none) and makes this replica's client certificate. */
  async start(): Promise<void> {
    try {
      this.ca = await this.loadOrCreateCa();
      this.unavailableReason = undefined;
    } catch (err) {
      this.unavailableReason = `the platform CA cannot be used: ${err instanceof Error ? err.message : String(err)}`;
      this.d.log(
        'the platform CA cannot be used (is SECRET_KEY the one it was sealed with?): nodes cannot join and platform nodes are not dialled',
        err,
      );
      return;
    }
    await this.renewClient();
    const lifetime = this.d.clientLifetimeMs ?? CLIENT_LIFETIME_MS;
    const every = this.d.checkIntervalMs ?? Math.min(3600_000, Math.max(1000, lifetime / 10));
    this.timer = setInterval(() => {
      this.renewClientIfDue().catch((err) =>
        this.d.log('the control plane client certificate was not renewed', err),
      );
    }, every);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  get available(): boolean {
    return this.ca !== undefined;
  }

  /** The CA certificate (PEM) that agents trust; undefined while the CA is not available. */
  get caCertificatePem(): string | undefined {
    return this.ca?.certificatePem;
  }

  /** What to dial platform nodes with; undefined while the CA is not available. */
  clientCredentials(): PlatformClientCredentials | undefined {
    return this.client;
  }

  /** Called after each new client certificate (the agent pool replaces its channels). */
  onClientRenewed(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A new client certificate when two thirds of the current one's life have passed. */
  async renewClientIfDue(): Promise<boolean> {
    if (!this.ca) return false;
    const v = this.clientValidity;
    if (v && this.now() < v.from + ((v.to - v.from) * 2) / 3) return false;
    await this.renewClient();
    return true;
  }

  /** Makes a new key and client certificate for this replica (CN gpucloud-control-plane, clientAuth). */
  renewClient(): Promise<void> {
    this.renewing ??= this.makeClient().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async makeClient(): Promise<void> {
    const ca = this.ca;
    if (!ca) throw new Error(this.unavailableReason ?? 'the platform CA is not available');
    const now = this.now();
    const lifetime = this.d.clientLifetimeMs ?? CLIENT_LIFETIME_MS;
    const keys = await generateKeys();
    const cert = await issue(ca, {
      subject: CLIENT_SUBJECT,
      publicKey: keys.publicKey,
      lifetimeMs: lifetime,
      eku: EKU_CLIENT_AUTH,
      now,
    });
    const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
    this.client = {
      ca: Buffer.from(ca.certificatePem),
      cert: Buffer.from(cert.toString('pem')),
      key: Buffer.from(pem('PRIVATE KEY', pkcs8)),
      generation: (this.client?.generation ?? 0) + 1,
    };
    this.clientValidity = { from: now, to: now + lifetime };
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (err) {
        this.d.log('a client certificate listener failed', err);
      }
    }
  }

  /**
   * Signs an agent's CSR (checked: see parseAgentCsr) for node `nodeId`: CN node-<id>, SAN DNS
   * node-<id>.gpucloud.internal, serverAuth, 90 days.
   */
  async signAgentCsr(
    csrPem: string,
    nodeId: number,
  ): Promise<{ certificatePem: string; caCertificatePem: string; expiresAt: Date }> {
    const ca = this.ca;
    if (!ca) throw new Error(this.unavailableReason ?? 'the platform CA is not available');
    const csr = await parseAgentCsr(csrPem);
    const now = this.now();
    const cert = await issue(ca, {
      subject: `CN=node-${nodeId}`,
      publicKey: csr.publicKey,
      lifetimeMs: AGENT_LIFETIME_MS,
      eku: EKU_SERVER_AUTH,
      dnsName: agentServerName(nodeId),
      now,
    });
    return {
      certificatePem: cert.toString('pem'),
      caCertificatePem: ca.certificatePem,
      expiresAt: cert.notAfter,
    };
  }

  private async loadOrCreateCa(): Promise<LoadedCa> {
    let stored = await this.d.store.read();
    if (!stored) {
      const made = await createCa(this.now());
      await this.d.store.insertIfAbsent({
        certificate_pem: made.certificatePem,
        key_sealed: this.d.secrets.seal(made.keyPem),
      });
      // Another replica may have stored its own first: everybody uses the stored one.
      stored = await this.d.store.read();
      if (!stored) throw new Error('the platform CA was not stored');
      if (stored.certificate_pem === made.certificatePem) this.d.log('platform CA created');
    }
    let keyPem: string;
    try {
      keyPem = this.d.secrets.open(stored.key_sealed);
    } catch {
      throw new Error('its key does not open with this SECRET_KEY');
    }
    return loadCa(stored.certificate_pem, keyPem);
  }
}

// The agent's TLS server credentials. Hand-made certificates (--tls-cert/--tls-key[/--tls-ca]):
// read once at start (createSsl). The platform's (--tls-mode platform, written by `join`):
// grpc-js's file-watching certificate provider rereads the key, the certificate and the CA every
// `refreshMs`, so a renewed certificate (InstallCertificate) is served to new connections
// without a restart; clients must present a certificate that chains to the platform CA.
import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import * as x509 from '@peculiar/x509';
import type { TlsFiles } from '../config.js';
import { ConfigError } from '../config.js';
import { spkiOfPrivateKey } from './certificates.js';

x509.cryptoProvider.set(globalThis.crypto);

/** How often the platform's files are read again (a renewal reaches new connections within this). */
export const TLS_REFRESH_MS = 5_000;

export interface ServerTls {
  credentials: grpc.ServerCredentials;
  /** Resolves once the files have been read (connections before that would be dropped). */
  ready: Promise<void>;
}

function checkPlatformFiles(tls: TlsFiles): void {
  if (!tls.caFile) throw new ConfigError('--tls-mode platform needs --tls-ca');
  for (const [what, file] of [
    ['certificate', tls.certFile],
    ['key', tls.keyFile],
    ['CA certificate', tls.caFile],
  ] as const) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError(
        `cannot read the platform TLS ${what} ${file}: ${err instanceof Error ? err.message : String(err)} (run gpucloud-agent join again?)`,
      );
    }
    if (what !== 'key') {
      try {
        new x509.X509Certificate(text);
      } catch {
        throw new ConfigError(`the platform TLS ${what} ${file} is not a PEM certificate`);
      }
    }
  }
  const cert = new x509.X509Certificate(readFileSync(tls.certFile, 'utf8'));
  let keyMatches = false;
  try {
    keyMatches = spkiOfPrivateKey(readFileSync(tls.keyFile, 'utf8')).equals(
      Buffer.from(cert.publicKey.rawData),
    );
  } catch {
    keyMatches = false;
  }
  if (!keyMatches) {
    throw new ConfigError(`the platform TLS key ${tls.keyFile} is not the key of ${tls.certFile}`);
  }
}

export function serverTls(tls: TlsFiles | undefined, refreshMs = TLS_REFRESH_MS): ServerTls {
  if (!tls) return { credentials: grpc.ServerCredentials.createInsecure(), ready: Promise.resolve() };
  if (!tls.watch) {
    const ca = tls.caFile ? readFileSync(tls.caFile) : null;
    return {
      credentials: grpc.ServerCredentials.createSsl(
        ca,
        [{ cert_chain: readFileSync(tls.certFile), private_key: readFileSync(tls.keyFile) }],
        ca !== null,
      ),
      ready: Promise.resolve(),
    };
  }
  checkPlatformFiles(tls);
  // One provider for the identity and the CA (grpc-js's function names its first parameter the
  // CA provider but uses it as the identity one: with a single provider the order cannot matter).
  const provider = new grpc.experimental.FileWatcherCertificateProvider({
    certificateFile: tls.certFile,
    privateKeyFile: tls.keyFile,
    caCertificateFile: tls.caFile,
    refreshIntervalMs: refreshMs,
  });
  const credentials = grpc.experimental.createCertificateProviderServerCredentials(provider, provider, true);
  // The provider reads the files when the server starts watching (at bind); this listener sees
  // that first read. It stays registered (the server's own keeps the provider watching anyway).
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      provider.removeIdentityCertificateListener(listener);
      reject(new ConfigError(`the platform TLS files ${tls.certFile} and ${tls.keyFile} could not be read`));
    }, 10_000);
    const listener = (update: unknown) => {
      if (!update) return;
      clearTimeout(timer);
      // Removed once read: the server's own listener keeps the provider watching while it
      // serves, and a listener left behind would keep its timer running after the server closed.
      setImmediate(() => provider.removeIdentityCertificateListener(listener));
      resolve();
    };
    provider.addIdentityCertificateListener(listener);
  });
  return { credentials, ready };
}

// The fleet-operation RPCs (certificate renewal, upgrades): filled in by their issue 19 parts.

import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import type {
  InstallCertificateRequest__Output,
  InstallCertificateResponse,
  NodeAgentHandlers,
  RenewCertificateResponse,
} from '@gpucloud/proto';
import type { AgentConfig } from '../config.js';
import { failedPrecondition, invalidArgument } from '../errors.js';
import { type RpcDeps, unary } from '../rpc/rpc-support.js';
import {
  CertificateCheckError,
  checkCertificate,
  commonNameOf,
  newKeyAndRequest,
  sameCertificate,
  spkiOfPrivateKey,
  writeAtomic,
} from './certificates.js';
import { upgradeAgentHandler } from './upgrade.js';

/**
 * Certificate renewal of a node that joined with a token (--tls-mode platform). RenewCertificate
 * makes a new key (kept in memory and in `<key>.next`, 0600, so an agent restarted in between
 * can still install) and answers its signing request; InstallCertificate takes the signed
 * certificate only for that key and only from the CA the agent already trusts, then replaces the
 * key and the certificate (each by a rename). The file watcher (tls-server.ts) serves them to
 * new connections; the connection the call came on keeps its certificate.
 */
export class CertificateRenewal {
  private pending: { keyPem: string; spki: Buffer } | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly tls: AgentConfig['tls']) {}

  private platformFiles(): { certFile: string; keyFile: string; caFile: string } {
    const tls = this.tls;
    if (!tls?.watch || !tls.caFile) {
      throw failedPrecondition(
        '本节点未使用平台签发的证书（不是用加入令牌接入的），证书需手动更换 (the agent does not run with --tls-mode platform)',
      );
    }
    return { certFile: tls.certFile, keyFile: tls.keyFile, caFile: tls.caFile };
  }

  /** One renewal step at a time. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  renew(): Promise<RenewCertificateResponse> {
    return this.serial(async () => {
      const files = this.platformFiles();
      const commonName = commonNameOf(readFileSync(files.certFile, 'utf8'));
      const next = await newKeyAndRequest(commonName);
      await writeAtomic(`${files.keyFile}.next`, next.keyPem, 0o600);
      this.pending = { keyPem: next.keyPem, spki: next.spki };
      return { csrPem: next.csrPem };
    });
  }

  install(request: InstallCertificateRequest__Output): Promise<InstallCertificateResponse> {
    return this.serial(async () => {
      const files = this.platformFiles();
      if (!request.certificatePem.trim()) throw invalidArgument('certificate_pem 不能为空');
      let pending = this.pending;
      if (!pending) {
        const keyPem = await fs.readFile(`${files.keyFile}.next`, 'utf8').catch(() => undefined);
        if (keyPem) pending = { keyPem, spki: spkiOfPrivateKey(keyPem) };
      }
      if (!pending) throw failedPrecondition('没有等待签发的新密钥：请先调用 RenewCertificate');
      const caPem = readFileSync(files.caFile, 'utf8');
      if (request.caCertificatePem.trim() && !sameCertificate(request.caCertificatePem, caPem)) {
        throw failedPrecondition('新证书的 CA 不是本节点信任的平台 CA（不支持更换 CA）');
      }
      let cert: Awaited<ReturnType<typeof checkCertificate>>;
      try {
        cert = await checkCertificate(request.certificatePem, caPem, pending.spki);
      } catch (err) {
        if (err instanceof CertificateCheckError) throw invalidArgument(err.message);
        throw err;
      }
      // The key before its certificate: the watcher pairs them on its next read.
      await writeAtomic(files.keyFile, pending.keyPem, 0o600);
      await writeAtomic(files.certFile, request.certificatePem, 0o644);
      await fs.rm(`${files.keyFile}.next`, { force: true });
      this.pending = undefined;
      return { expiresUnixMs: cert.notAfter.getTime() };
    });
  }
}

export function fleetHandlers(
  deps: RpcDeps,
  config: AgentConfig,
): Pick<NodeAgentHandlers, 'RenewCertificate' | 'InstallCertificate' | 'UpgradeAgent'> {
  const renewal = new CertificateRenewal(config.tls);
  return {
    RenewCertificate: unary(deps, 'RenewCertificate', () => renewal.renew()),
    InstallCertificate: unary(deps, 'InstallCertificate', (request: InstallCertificateRequest__Output) =>
      renewal.install(request),
    ),
    UpgradeAgent: upgradeAgentHandler({
      installDir: config.installDir,
      token: deps.token,
      log: deps.log,
      ...(deps.restartAfterUpgrade ? { restart: deps.restartAfterUpgrade } : {}),
    }),
  } as never;
}

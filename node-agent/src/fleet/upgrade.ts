// UpgradeAgent (升级): the control plane streams an agent bundle (header first, then chunks).
// The agent spools it to a file under its install (checking size and SHA-256 as it comes),
// unpacks it beside the running version (`<install>/versions/<version>-<build>`), checks that the
// new agent starts (`bin/gpucloud-agent --version`), points `<install>/current` at it (a new link
// renamed over the old one: atomic), answers, and then shuts down like on SIGTERM (answers in
// flight get their grace) and exits 0: its supervisor (systemd Restart=always) starts the new
// version. Containers are Docker's and keep running: the agent's close() stops timers, streams
// and the gRPC server, never a container.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { UpgradeAgentChunk__Output, UpgradeAgentResponse } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { AgentError, errorMessage, failedPrecondition, invalidArgument } from '../errors.js';
import { isAuthorized } from '../rpc/auth.js';
import { toServiceError } from '../rpc/errors.js';

const run = promisify(execFile);

/** The largest bundle taken (a bundle with the Node.js runtime is ~50 MB). */
export const MAX_BUNDLE_BYTES = 1024 ** 3;
/** A version or build is a path segment: `<version>-<build>`. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const CHECK_TIMEOUT_MS = 30_000;
/** Versions kept in `<install>/versions`: the new one and the one it replaced (to go back by hand). */
const KEEP_VERSIONS = 2;

export const NOT_FROM_BUNDLE = '此节点代理不是从安装包运行的，无法在线升级';

export interface UpgradeOptions {
  /** The install the agent runs from (versions/, current); undefined from a checkout. */
  installDir: string | undefined;
  /** The node token every call must carry. */
  token: string;
  log: (line: string) => void;
  /**
   * Called once the answer is sent: shuts the agent down gracefully and exits 0 (default:
   * SIGTERM to this process, which main.ts answers so). Tests of an agent in their own process
   * pass their own.
   */
  restart?: () => void;
}

type Call = grpc.ServerReadableStream<UpgradeAgentChunk__Output, UpgradeAgentResponse>;

interface Header {
  version: string;
  build: string;
  size: number;
  sha256: string;
}

function checkHeader(message: UpgradeAgentChunk__Output | undefined): Header {
  const h = message?.header;
  if (!h) throw invalidArgument('升级数据的第一条消息必须是 header');
  const size = Number(h.sizeBytes);
  if (!NAME.test(h.version) || !NAME.test(h.build)) throw invalidArgument('安装包的版本号或构建号无效');
  if (!SHA256.test(h.sha256)) throw invalidArgument('安装包的 SHA-256 无效');
  if (!Number.isSafeInteger(size) || size <= 0 || size > MAX_BUNDLE_BYTES) {
    throw invalidArgument('安装包大小无效');
  }
  return { version: h.version, build: h.build, size, sha256: h.sha256 };
}

/** Reads the link `current` points at, as a folder name under versions/ (undefined when none). */
async function currentVersionDir(installDir: string): Promise<string | undefined> {
  const target = await fs.readlink(path.join(installDir, 'current')).catch(() => undefined);
  return target ? path.basename(target) : undefined;
}

/**
 * Installs a received bundle file: unpacks it, checks its VERSION and that it starts, switches
 * `current`. Returns the folder name it installed.
 */
export async function installBundle(
  installDir: string,
  bundleFile: string,
  header: Pick<Header, 'version' | 'build'>,
  work: string,
  log: (line: string) => void = () => {},
): Promise<string> {
  const versions = path.join(installDir, 'versions');
  const name = `${header.version}-${header.build}`;
  const target = path.join(versions, name);
  const unpacked = path.join(work, 'unpacked');
  await fs.mkdir(unpacked, { recursive: true });
  // The bundle holds gpucloud-agent/{bin,lib,toolbox,VERSION}: its contents become the version's folder.
  try {
    await run('tar', ['-xzf', bundleFile, '-C', unpacked, '--strip-components=1', '--no-same-owner'], {
      timeout: 5 * 60_000,
    });
  } catch (err) {
    throw invalidArgument(`安装包无法解压：${errorMessage(err).slice(0, 300)}`);
  }
  const version = await fs
    .readFile(path.join(unpacked, 'VERSION'), 'utf8')
    .then((text) => JSON.parse(text) as { version?: unknown; build?: unknown })
    .catch(() => undefined);
  if (!version || version.version !== header.version || version.build !== header.build) {
    throw invalidArgument('安装包的 VERSION 与升级请求不符');
  }
  // The new agent must start before it is made current.
  let said: string;
  try {
    said = (
      await run(path.join(unpacked, 'bin', 'gpucloud-agent'), ['--version'], { timeout: CHECK_TIMEOUT_MS })
    ).stdout;
  } catch (err) {
    throw failedPrecondition(`新版本代理无法启动：${errorMessage(err).slice(0, 300)}`);
  }
  if (!said.includes(`${header.version} build ${header.build}`)) {
    throw failedPrecondition(`新版本代理报告的版本不符：${said.trim().slice(0, 200)}`);
  }
  const previous = await currentVersionDir(installDir);
  const exists = await fs.stat(path.join(target, 'VERSION')).then(
    () => true,
    () => false,
  );
  // The same build is the same contents (the build is their hash): one already there is kept.
  if (!exists) {
    await fs.rm(target, { recursive: true, force: true });
    await fs.rename(unpacked, target);
  }
  // A new link renamed over `current`: whoever reads it sees the old version or the new one.
  const link = path.join(installDir, `.current-${randomBytes(6).toString('hex')}`);
  await fs.symlink(path.join('versions', name), link);
  try {
    await fs.rename(link, path.join(installDir, 'current'));
  } catch (err) {
    await fs.rm(link, { force: true });
    throw err;
  }
  // Older versions go; the one replaced stays to go back to by hand.
  const keep = new Set([name, previous].filter(Boolean).slice(0, KEEP_VERSIONS));
  for (const entry of await fs.readdir(versions).catch(() => [] as string[])) {
    if (keep.has(entry) || entry.startsWith('.')) continue;
    await fs
      .rm(path.join(versions, entry), { recursive: true, force: true })
      .catch((err: unknown) => log(`old agent version ${entry} not removed: ${errorMessage(err)}`));
  }
  return name;
}

/** Receives the bundle into `work/bundle.tar.gz`, checking its size and SHA-256 as it comes. */
async function receive(call: Call, work: string): Promise<{ header: Header; file: string }> {
  const iterator = (call as AsyncIterable<UpgradeAgentChunk__Output>)[Symbol.asyncIterator]();
  const first = await iterator.next();
  const header = checkHeader(first.done ? undefined : first.value);
  const file = path.join(work, 'bundle.tar.gz');
  const out = await fs.open(file, 'wx', 0o600);
  const hash = createHash('sha256');
  let received = 0;
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      const chunk = next.value.chunk;
      if (!chunk || chunk.length === 0) continue;
      received += chunk.length;
      if (received > header.size) throw invalidArgument('安装包比声明的大小大');
      hash.update(chunk);
      await out.write(chunk);
    }
  } finally {
    await out.close();
  }
  if (received !== header.size) {
    throw invalidArgument(`安装包不完整：收到 ${received} 字节，应为 ${header.size} 字节`);
  }
  if (hash.digest('hex') !== header.sha256) throw invalidArgument('安装包的 SHA-256 校验失败');
  return { header, file };
}

/** The UpgradeAgent handler (client stream). One upgrade at a time. */
export function upgradeAgentHandler(
  options: UpgradeOptions,
): grpc.handleClientStreamingCall<UpgradeAgentChunk__Output, UpgradeAgentResponse> {
  let busy = false;
  const restart =
    options.restart ??
    (() => {
      process.kill(process.pid, 'SIGTERM');
    });
  return (call, callback) => {
    const fail = (err: unknown) => {
      if (!(err instanceof AgentError)) options.log(`UpgradeAgent failed: ${errorMessage(err)}`);
      callback(toServiceError(err));
    };
    if (!isAuthorized(call.metadata, options.token)) {
      callback({ code: grpc.status.UNAUTHENTICATED, details: '节点令牌无效' });
      return;
    }
    const installDir = options.installDir;
    if (!installDir) {
      fail(failedPrecondition(NOT_FROM_BUNDLE));
      return;
    }
    if (busy) {
      fail(failedPrecondition('此节点代理正在升级'));
      return;
    }
    busy = true;
    const versions = path.join(installDir, 'versions');
    let work: string | undefined;
    void (async () => {
      try {
        await fs.mkdir(versions, { recursive: true });
        work = await fs.mkdtemp(path.join(versions, '.incoming-'));
        const { header, file } = await receive(call, work);
        const name = await installBundle(installDir, file, header, work, options.log);
        await fs.rm(work, { recursive: true, force: true });
        work = undefined;
        options.log(`agent ${name} installed as current; restarting into it`);
        callback(null, { version: header.version, build: header.build });
        // After the answer has gone: the graceful shutdown lets it finish.
        setTimeout(restart, 100).unref?.();
      } catch (err) {
        // Nothing half-received stays behind (cleared before the answer).
        if (work) await fs.rm(work, { recursive: true, force: true }).catch(() => {});
        busy = false;
        fail(err);
      }
    })();
  };
}

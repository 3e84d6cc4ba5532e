// The embedded registry's process: Debian's docker-registry (CNCF distribution 2.8) on
// 127.0.0.1:<port>, storing under the data folder, deleting allowed, trusting the control
// plane's token endpoint. Supervised: restarted after a delay that doubles with each quick
// failure (1 s … 30 s); stopped with the control plane. It runs in a process group of its own
// (a terminal's Ctrl+C reaches it only through close(), in order), and its pid is kept in
// <dataDir>/registry.pid so that one left by a control plane killed with SIGKILL is stopped at
// the next start instead of holding the port.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TOKEN_ISSUER, TOKEN_SERVICE } from './registry-tokens.js';

type Log = (message: string, err?: unknown) => void;

export interface RegistryProcessOptions {
  binary: string;
  dataDir: string;
  /** Resolved (not 0). */
  port: number;
  certificatePem: string;
  httpSecret: string;
  log: Log;
  /** How long start() waits for the registry to answer. */
  startTimeoutMs?: number;
}

/** A port of 127.0.0.1 free a moment ago (the kernel's pick). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The command line of a living process, or undefined (none, or a zombie). */
function commandLine(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return undefined;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}

const yamlString = (value: string) => JSON.stringify(value);

export class RegistryProcess {
  readonly address: string;
  private readonly configFile: string;
  private readonly pidFile: string;
  private child: ChildProcess | undefined;
  private output = '';
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private delayMs = 0;
  private startedAt = 0;
  /** How many times it was started again after dying. */
  restarts = 0;

  constructor(private readonly options: RegistryProcessOptions) {
    this.address = `127.0.0.1:${options.port}`;
    this.configFile = path.join(options.dataDir, 'config.yml');
    this.pidFile = path.join(options.dataDir, 'registry.pid');
  }

  get pid(): number | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  /** Writes the configuration, stops a leftover, spawns it and waits until it answers (or gives up, logging). */
  async start(realm: string): Promise<void> {
    const { dataDir, port, certificatePem, httpSecret } = this.options;
    await fs.mkdir(path.join(dataDir, 'data'), { recursive: true, mode: 0o700 });
    const bundle = path.join(dataDir, 'token-signer.pem');
    await fs.writeFile(bundle, certificatePem);
    await fs.writeFile(
      this.configFile,
      [
        'version: 0.1',
        'log:',
        '  level: warn',
        '  accesslog:',
        '    disabled: true',
        'storage:',
        '  filesystem:',
        `    rootdirectory: ${yamlString(path.join(dataDir, 'data'))}`,
        '  delete:',
        '    enabled: true',
        'http:',
        `  addr: ${yamlString(`127.0.0.1:${port}`)}`,
        `  secret: ${yamlString(httpSecret)}`,
        'auth:',
        '  token:',
        `    realm: ${yamlString(realm)}`,
        `    service: ${yamlString(TOKEN_SERVICE)}`,
        `    issuer: ${yamlString(TOKEN_ISSUER)}`,
        `    rootcertbundle: ${yamlString(bundle)}`,
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    await this.stopLeftover();
    this.spawn();
    await this.untilServing();
  }

  private async stopLeftover(): Promise<void> {
    let pid: number;
    try {
      pid = Number((await fs.readFile(this.pidFile, 'utf8')).trim());
    } catch {
      return; // none recorded
    }
    const args = commandLine(pid);
    if (!Number.isInteger(pid) || !args?.includes(this.configFile)) return; // gone, or another program now
    this.options.log(`stopping the registry a previous run left (pid ${pid})`);
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 50 && commandLine(pid); i++) await sleep(100);
    if (commandLine(pid)) process.kill(pid, 'SIGKILL');
  }

  private spawn(): void {
    this.startedAt = Date.now();
    const child = spawn(this.options.binary, ['serve', this.configFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child = child;
    const collect = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-4000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.once('error', (err) => this.options.log('the registry could not be started', err));
    if (child.pid) void fs.writeFile(this.pidFile, `${child.pid}\n`).catch(() => {});
    child.once('exit', (code, signal) => {
      if (this.stopping || this.child !== child) return;
      this.delayMs =
        Date.now() - this.startedAt >= 60_000 ? 1000 : Math.min(30_000, this.delayMs * 2 || 1000);
      this.options.log(
        `the registry exited (${signal ?? `code ${code}`}), restarting in ${this.delayMs / 1000} s: ${this.output.trim().split('\n').slice(-3).join(' | ')}`,
      );
      this.restartTimer = setTimeout(() => {
        this.restartTimer = undefined;
        this.restarts++;
        this.output = '';
        this.spawn();
      }, this.delayMs);
    });
  }

  /** Until GET /v2/ answers 401 (it checks tokens), the process dies, or the time runs out: the last two only log. */
  async untilServing(timeoutMs = this.options.startTimeoutMs ?? 15_000): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    const child = this.child;
    while (Date.now() < until && !this.stopping) {
      if (!child || child.exitCode !== null || child.signalCode !== null) break;
      try {
        const res = await fetch(`http://${this.address}/v2/`, { signal: AbortSignal.timeout(2000) });
        await res.body?.cancel();
        if (res.status === 401) return true;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    if (!this.stopping)
      this.options.log(`the registry is not serving on ${this.address} yet: ${this.output.trim()}`);
    return false;
  }

  /** Stops it for good: SIGTERM, SIGKILL after timeoutMs; a pending restart is cancelled. */
  async close(timeoutMs = 10_000): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(killer);
    }
    await fs.rm(this.pidFile, { force: true });
  }
}

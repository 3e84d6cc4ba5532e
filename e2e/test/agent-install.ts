// An agent installed from a real bundle as deploy/agent/install.sh lays it out
// (`<install>/versions/<version>-<build>`, `<install>/current` → it), run under a tiny supervisor
// that starts it again whenever it exits (standing in for systemd's Restart=always).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contentHash } from '../../control-plane/src/modules/fleet/bundle.js';

export interface BundleFile {
  path: string;
  version: string;
  build: string;
  sha256: string;
  size: number;
}

/**
 * The bundle made again as another version (an "old" agent): the same agent, with a line of its
 * own in lib/agent.mjs so that its build (the hash of its contents) differs too, and a VERSION
 * that says so. Built as fleet/bundle.ts builds: the build hashes the contents without VERSION.
 */
export async function bundleAsVersion(
  bundle: BundleFile,
  version: string,
  outDir: string,
): Promise<BundleFile> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-old-bundle-'));
  try {
    execFileSync('tar', ['-xzf', bundle.path, '-C', work]);
    const top = path.join(work, 'gpucloud-agent');
    appendFileSync(
      path.join(top, 'lib', 'agent.mjs'),
      `\n// gpucloud-agent ${version} (an older build, for tests)\n`,
    );
    rmSync(path.join(top, 'VERSION'));
    const build = (await contentHash(work)).slice(0, 12);
    writeFileSync(path.join(top, 'VERSION'), `${JSON.stringify({ version, build, protocol: 1 })}\n`);
    mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `gpucloud-agent-${version}-${build}-linux-${process.arch}.tar.gz`);
    execFileSync('tar', ['-czf', file, '-C', work, 'gpucloud-agent']);
    const bytes = readFileSync(file);
    return {
      path: file,
      version,
      build,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: statSync(file).size,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Unpacks the bundle as the install script does and points `current` at it. */
export function installBundle(bundle: BundleFile, installDir: string): string {
  const dir = path.join(installDir, 'versions', `${bundle.version}-${bundle.build}`);
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-xzf', bundle.path, '-C', dir, '--strip-components=1']);
  symlinkSync(path.join('versions', `${bundle.version}-${bundle.build}`), path.join(installDir, 'current'));
  return dir;
}

export interface Supervised {
  /** How many times the agent was started (1 + restarts). */
  starts(): number;
  /** Every line the agent wrote (stdout and stderr), for a failure's message. */
  output(): string;
  /** Stops the agent (SIGTERM) and does not start it again. */
  stop(): Promise<void>;
}

/** Runs `<install>/current/bin/gpucloud-agent args…` and starts it again whenever it exits. */
export function supervise(installDir: string, args: string[], env: NodeJS.ProcessEnv): Supervised {
  let child: ChildProcess | undefined;
  let starts = 0;
  let stopping = false;
  let out = '';
  const start = () => {
    starts++;
    const proc = spawn(path.join(installDir, 'current', 'bin', 'gpucloud-agent'), args, {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    const keep = (d: Buffer) => {
      out = (out + d.toString()).slice(-20_000);
    };
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    proc.on('exit', (code, signal) => {
      out += `\n[supervisor] agent exited (${code ?? signal})\n`;
      if (!stopping) setTimeout(start, 200);
    });
  };
  start();
  return {
    starts: () => starts,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        const proc = child;
        if (!proc || proc.exitCode !== null || proc.signalCode !== null) return resolve();
        const force = setTimeout(() => proc.kill('SIGKILL'), 15_000);
        proc.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        proc.kill('SIGTERM');
      }),
  };
}

import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HostInfo__Output } from '@gpucloud/proto';
import { describe, expect, inject, it } from 'vitest';
import { bearer, newClient, unaryCall } from './helpers.js';

const agentDir = fileURLToPath(new URL('..', import.meta.url));

function runAgent(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: agentDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

describe('the gpucloud-agent command', () => {
  it('refuses to start without a token', async () => {
    const child = runAgent(['--listen', '127.0.0.1:0']);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    expect(await exited(child)).toBe(2);
    expect(stderr).toMatch(/token/i);
  });

  it('prints one line when listening, serves, and stops on SIGTERM', async () => {
    const volumeRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-cli-'));
    const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-cli-state-'));
    const child = runAgent(
      [
        '--listen',
        '127.0.0.1:0',
        '--simulate-gpus',
        '2xA100',
        '--volume-root',
        volumeRoot,
        '--state-dir',
        stateDir,
        '--bind-address',
        '127.0.0.1',
      ],
      {
        AGENT_TOKEN: 'cli-token',
        DOCKER_HOST: inject('dockerHost'),
        AGENT_TOOLBOX_DIR: inject('toolboxDir'),
      },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout?.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0] ?? '');
        });
        child.on('exit', (code) => reject(new Error(`agent exited with ${code}`)));
      });
      const m = /listening on 127\.0\.0\.1:(\d+)/.exec(line);
      expect(m, line).not.toBeNull();
      const client = newClient(`127.0.0.1:${m?.[1]}`);
      const info: HostInfo__Output = await unaryCall((cb) => client.getHostInfo({}, bearer('cli-token'), cb));
      client.close();
      expect(info.gpus.map((g) => g.model)).toEqual(['NVIDIA A100-SXM4-80GB', 'NVIDIA A100-SXM4-80GB']);
      const exit = exited(child);
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await fs.rm(volumeRoot, { recursive: true, force: true });
      await fs.rm(stateDir, { recursive: true, force: true });
    }
  });
});

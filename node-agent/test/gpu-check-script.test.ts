// deploy/agent/gpu-check.sh run against stand-ins for nvidia-smi and Docker: it has not run on
// a GPU host yet, so this checks its own logic only (what it asks Docker, how it judges the
// answers, its exit status), not what a real toolkit does.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../deploy/agent/gpu-check.sh', import.meta.url));
const UUID = 'GPU-3f2a1b7c-0000-0000-0000-000000000000';

describe('deploy/agent/gpu-check.sh', () => {
  let work: string;
  const run = (env: Record<string, string>, args: string[] = []) => {
    const record = path.join(work, `calls-${Math.random().toString(36).slice(2)}.log`);
    const result = spawnSync('bash', [SCRIPT, ...args], {
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${work}:${process.env.PATH ?? ''}`,
        DOCKER: path.join(work, 'docker'),
        RECORD: record,
        ...env,
      },
      timeout: 60_000,
    });
    return { ...result, calls: () => fs.readFile(record, 'utf8') };
  };

  beforeAll(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-gpu-check-'));
    await fs.writeFile(
      path.join(work, 'nvidia-smi'),
      [
        '#!/bin/sh',
        'case "$*" in',
        `  *--query-gpu=*) echo "0, ${UUID}, 00000000:00:04.0, Disabled" ;;`,
        `  -L) echo "GPU 0: Tesla T4 (UUID: ${UUID})" ;;`,
        'esac',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    // Docker: `run` answers like a container given GPU 0 would; FAKE_MODE=leaky shows one more GPU.
    await fs.writeFile(
      path.join(work, 'docker'),
      [
        '#!/bin/sh',
        'echo "docker $*" >> "$RECORD"',
        'case "$1" in',
        '  info) [ "$2" = --format ] && echo "$FAKE_DISCOVERED"; exit 0 ;;',
        '  import) cat > /dev/null; exit 0 ;;',
        '  run) ;;',
        '  *) exit 0 ;;',
        'esac',
        'case "$*" in',
        '  *NVIDIA_VISIBLE_DEVICES=void*) [ "$FAKE_MODE" = leaky ] && echo nvidia1; exit 0 ;;',
        `  *"nvidia-smi -L"*) echo "GPU 0: Tesla T4 (UUID: ${UUID})" ;;`,
        '  *"/proc/driver/nvidia/gpus"*) echo "0000:00:04.0" ;;',
        '  *"busybox sh -c"*) echo nvidia0; [ "$FAKE_MODE" = leaky ] && echo nvidia1 ;;',
        'esac',
        'exit 0',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
  });
  afterAll(async () => {
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('passes every check when the container sees exactly its GPU, through the legacy hook', async () => {
    const result = run({ FAKE_MODE: 'good', FAKE_DISCOVERED: 'null' });
    expect(result.stdout).toContain(`PASS  nvidia-smi -L inside shows exactly ${UUID}`);
    expect(result.stdout).toContain('PASS  one GPU device node in the container (/dev/nvidia0)');
    expect(result.stdout).toContain('PASS  only 0000:00:04.0 under /proc/driver/nvidia/gpus');
    expect(result.stdout).toContain(
      'PASS  a container with NVIDIA_VISIBLE_DEVICES=void has no GPU device node',
    );
    expect(result.stdout).toContain('all checks passed');
    expect(result.status).toBe(0);
    const calls = await result.calls();
    expect(calls).toContain(`docker run --rm --gpus device=${UUID} -e NVIDIA_VISIBLE_DEVICES=${UUID}`);
    expect(calls).toContain('docker rmi gpucloud/gpu-check:local');
  });

  it('uses the CDI device where Docker lists it', async () => {
    const result = run({
      FAKE_MODE: 'good',
      FAKE_DISCOVERED: `[{"Source":"cdi","ID":"nvidia.com/gpu=${UUID}"}]`,
    });
    expect(result.status).toBe(0);
    expect(await result.calls()).toContain(`docker run --rm --device nvidia.com/gpu=${UUID}`);
  });

  it('fails, and says what it saw, when a container sees a GPU it was not given', async () => {
    const result = run({ FAKE_MODE: 'leaky', FAKE_DISCOVERED: 'null' });
    expect(result.stdout).toContain('FAIL  one GPU device node in the container');
    expect(result.stdout).toContain('      nvidia1');
    expect(result.stdout).toContain('FAIL  a container with NVIDIA_VISIBLE_DEVICES=void');
    expect(result.stdout).toContain('2 check(s) failed');
    expect(result.status).toBe(1);
  });

  it('refuses to time starts with persistence mode unless root', async () => {
    // An `id` that answers a normal user's uid, whoever runs the test (CI runs as root).
    const asUser = path.join(work, 'as-user');
    await fs.mkdir(asUser, { recursive: true });
    await fs.writeFile(path.join(asUser, 'id'), '#!/bin/sh\necho 1000\n', { mode: 0o755 });
    const result = run(
      { FAKE_MODE: 'good', FAKE_DISCOVERED: 'null', PATH: `${asUser}:${work}:${process.env.PATH ?? ''}` },
      ['--persistence-timing'],
    );
    expect(result.stdout).toContain('FAIL  start time with persistence mode off and on');
    expect(result.status).toBe(1);
  });
});

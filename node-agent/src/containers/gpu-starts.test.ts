import { describe, expect, it } from 'vitest';
import { AgentError } from '../errors.js';
import { isToolkitTimeout, retryToolkitTimeout, Semaphore } from './gpu-starts.js';

/** Docker's answers to starts that failed in the toolkit, as reported in the toolkit's issues. */
const TIMEOUTS = {
  // NVIDIA/nvidia-container-toolkit#202 (persistence mode off)
  driverRpc:
    "failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: initialization error: driver rpc error: timed out: unknown",
  // NVIDIA/nvidia-docker#723 (libnvidia-container before the rpc rework)
  driver:
    'OCI runtime create failed: container_linux.go:348: starting container process caused "process_linux.go:402: container init caused \\"process_linux.go:385: running prestart hook 1 caused \\\\\\"error running hook: exit status 1, stdout: , stderr: exec command: [/usr/bin/nvidia-container-cli --load-kmods configure --ldconfig=@/sbin/ldconfig --device=all --compute --utility --require=cuda>=9.0 --pid=4107 /var/lib/docker/overlay2/3d396bcc61c0fb4464b82f7b5d38acaf438bbdd4cf7bce2bba00a8869a582f58/merged]\\\\\\\\nnvidia-container-cli: initialization error: driver error: timed out\\\\\\\\n\\\\\\"\\"": unknown.',
  // NVIDIA/nvidia-container-toolkit#2102 (a burst of GPU starts on a loaded node)
  nvcgo: 'nvidia-container-cli: initialization error: nvcgo rpc error: timed out',
};

/** Failures that a second try does not fix. */
const FINAL = {
  // NVIDIA/nvidia-container-toolkit#416
  nvmlUnknown:
    "failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: detection error: nvml error: unknown error: unknown.",
  // dstackai/dstack#2306 (toolkit in CDI mode, legacy request)
  cdiMode:
    "failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 1, stdout: , stderr: Using requested mode 'cdi'\ninvoking the NVIDIA Container Runtime Hook directly (e.g. specifying the docker --gpus flag) is not supported. Please use the NVIDIA Container Runtime (e.g. specify the --runtime=nvidia flag) instead.: unknown",
  // NVIDIA/nvidia-container-toolkit#29
  unknownDevice:
    "failed to create shim: OCI runtime create failed: container_linux.go:380: starting container process caused: process_linux.go:545: container init caused: Running hook #1:: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: device error: false: unknown device: unknown.",
  // NVIDIA/nvidia-container-toolkit#434
  unresolvableCdi:
    'could not apply required modification to OCI specification: error modifying OCI spec: failed to inject CDI devices: unresolvable CDI devices nvidia.com/gpu=all: unknown',
  portTaken:
    'driver failed programming external connectivity on endpoint gpucloud-c1: Bind for 0.0.0.0:20001 failed: port is already allocated',
};

describe("the toolkit's start timeouts", () => {
  it('are recognised in the real messages', () => {
    for (const message of Object.values(TIMEOUTS)) expect(isToolkitTimeout(message)).toBe(true);
    expect(isToolkitTimeout('nvidia-container-cli: detection error: nvml error: timeout')).toBe(true);
    expect(
      isToolkitTimeout('error running createContainer hook #2: context deadline exceeded: timeout'),
    ).toBe(true);
  });

  it('are told apart from failures a retry does not fix', () => {
    for (const message of Object.values(FINAL)) expect(isToolkitTimeout(message)).toBe(false);
  });
});

/** A fake Docker start: fails with `failures` in order, then succeeds. */
function fakeStart(failures: string[]) {
  const calls: number[] = [];
  const start = async () => {
    calls.push(Date.now());
    const next = failures.shift();
    if (next !== undefined) throw new AgentError('INTERNAL', `start container gpucloud-c1: ${next}`);
  };
  return { start, calls };
}

describe('a GPU start that timed out', () => {
  it('is tried once more, and logged', async () => {
    const logs: string[] = [];
    const { start, calls } = fakeStart([TIMEOUTS.driverRpc]);
    await retryToolkitTimeout(start, (line) => logs.push(line));
    expect(calls).toHaveLength(2);
    expect(logs[0]).toMatch(/trying once more/);
  });

  it('fails after the second timeout', async () => {
    const { start, calls } = fakeStart([TIMEOUTS.nvcgo, TIMEOUTS.nvcgo]);
    await expect(retryToolkitTimeout(start)).rejects.toThrow(/nvcgo rpc error: timed out/);
    expect(calls).toHaveLength(2);
  });

  it('is not retried when it failed for another reason', async () => {
    for (const message of Object.values(FINAL)) {
      const { start, calls } = fakeStart([message]);
      await expect(retryToolkitTimeout(start)).rejects.toThrow(message.slice(0, 30));
      expect(calls).toHaveLength(1);
    }
  });
});

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once, in order, and passes on failures', async () => {
    const gate = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (i: number) =>
      gate.run(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(i);
        running -= 1;
        if (i === 3) throw new Error('boom');
        return i;
      });
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map(task));
    expect(peak).toBe(2);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(order.slice(0, 2).sort()).toEqual([1, 2]);
    expect(gate.running).toBe(0);
    expect(gate.queued).toBe(0);
    expect(() => new Semaphore(0)).toThrow();
  });
});

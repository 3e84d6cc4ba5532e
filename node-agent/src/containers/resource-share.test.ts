import { describe, expect, it } from 'vitest';
import { cpuShareNanoCpus, layerSizeBytes, StorageLimit } from './resource-share.js';

describe("a container's share of the node", () => {
  it('gives CPUs in proportion to the GPUs, at least one CPU, none on a node without GPUs', () => {
    expect(cpuShareNanoCpus(2, 8, 64)).toBe(16e9);
    expect(cpuShareNanoCpus(8, 8, 64)).toBe(64e9);
    expect(cpuShareNanoCpus(0, 8, 64)).toBe(8e9); // one GPU's share
    expect(cpuShareNanoCpus(1, 8, 2)).toBe(1e9); // 0.25 CPU is raised to one
    expect(cpuShareNanoCpus(1, 0, 64)).toBe(0);
  });

  it('limits writable layers only once Docker has shown it can, and warns otherwise', async () => {
    const yes = new StorageLimit('100G', async () => '');
    expect(await yes.sizeFor('img')).toBe('100G');
    expect(yes.warning).toBe('');
    let probes = 0;
    const no = new StorageLimit('100G', async () => {
      probes += 1;
      return "--storage-opt is supported only for overlay over xfs with 'pquota' mount option";
    });
    expect(await no.sizeFor('img')).toBeUndefined();
    expect(await no.sizeFor('img')).toBeUndefined();
    expect(probes).toBe(1);
    expect(no.warning).toMatch(/^容器可写层大小无法限制/);
    expect(await new StorageLimit('', async () => '').sizeFor('img')).toBeUndefined();
  });
});

describe('the writable-layer allowance in bytes', () => {
  it("reads Docker's binary units", () => {
    expect(layerSizeBytes('100G')).toBe(100 * 1024 ** 3);
    expect(layerSizeBytes('512Mi')).toBe(512 * 1024 ** 2);
    expect(layerSizeBytes('1.5TB')).toBe(1.5 * 1024 ** 4);
    expect(layerSizeBytes('4096')).toBe(4096);
    expect(layerSizeBytes('')).toBe(0);
  });

  it('is known from the setting, enforced only once Docker has shown it can', async () => {
    const refused = new StorageLimit('10G', async () => 'not supported');
    await refused.check('img');
    expect(refused).toMatchObject({ allowanceBytes: 10 * 1024 ** 3, enforced: false });
    const accepted = new StorageLimit('10G', async () => '');
    expect(accepted.enforced).toBe(false); // not probed yet
    await accepted.check('img');
    expect(accepted.enforced).toBe(true);
    expect(new StorageLimit('', async () => '').allowanceBytes).toBe(0);
  });
});

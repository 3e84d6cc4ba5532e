import { describe, expect, it } from 'vitest';
import { diskWarning } from './disk-warning.js';

const GIB = 1024 ** 3;

describe("the owner's warning about a container's writable layer", () => {
  it('says nothing when the layer is limited by the node, unmeasured, or under 80% of the allowance', () => {
    expect(diskWarning(null, 100 * GIB)).toBeNull();
    expect(diskWarning(50 * GIB, null)).toBeNull();
    expect(diskWarning(50 * GIB, 0)).toBeNull();
    expect(diskWarning(79 * GIB, 100 * GIB)).toBeNull();
  });

  it('warns from 80% of the allowance, and says when it is passed', () => {
    expect(diskWarning(85.2 * GIB, 100 * GIB)).toBe(
      '系统盘已用 85.2 GB, 接近 100.0 GB 上限。本节点无法限制容器系统盘, 写满将影响节点上所有容器; 请删除不需要的文件, 数据请放在存储卷中',
    );
    expect(diskWarning(120 * GIB, 100 * GIB)).toMatch(/^系统盘已用 120\.0 GB, 已超过 100\.0 GB 上限。/);
    expect(diskWarning(14 * 1024 ** 2, 16 * 1024 ** 2)).toMatch(/^系统盘已用 14 MB, 接近 16 MB 上限/);
  });
});

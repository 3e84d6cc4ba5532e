import { describe, expect, it } from 'vitest';
import { addCustomPorts, type PortContext, skippedReport } from './ports';

const ctx = (overrides: Partial<PortContext> = {}): PortContext => ({
  serverSelected: true,
  added: [],
  frameworkPorts: [22, 8888],
  occupied: [],
  ...overrides,
});

describe('addCustomPorts: single port', () => {
  it('asks for a port when the input is empty, and for a server first', () => {
    expect(addCustomPorts('  ', ctx())).toEqual({ ok: false, error: '请输入端口号' });
    expect(addCustomPorts('12000', ctx({ serverSelected: false }))).toEqual({
      ok: false,
      error: '请先选择服务器',
    });
  });

  it('accepts 10000-65535 only', () => {
    expect(addCustomPorts('12000', ctx())).toEqual({
      ok: true,
      ports: [12000],
      skippedOccupied: 0,
      skippedDuplicate: 0,
    });
    expect(addCustomPorts('10000', ctx()).ok).toBe(true);
    expect(addCustomPorts('65535', ctx()).ok).toBe(true);
    for (const bad of ['9999', '65536', '8888a', '12.5', '-1']) {
      expect(addCustomPorts(bad, ctx())).toEqual({ ok: false, error: '端口号必须在10000-65535之间' });
    }
  });

  it('refuses a framework default port, a port already added and a sixth port', () => {
    expect(addCustomPorts('12000', ctx({ frameworkPorts: [12000] }))).toEqual({
      ok: false,
      error: '该端口与框架默认端口重复',
    });
    expect(addCustomPorts('12000', ctx({ added: [12000] }))).toEqual({ ok: false, error: '该端口已添加' });
    expect(addCustomPorts('12005', ctx({ added: [12000, 12001, 12002, 12003, 12004] }))).toEqual({
      ok: false,
      error: '最多只能添加5个自定义端口',
    });
  });

  it('names an occupied port', () => {
    expect(addCustomPorts('12000', ctx({ occupied: [12000] }))).toEqual({
      ok: false,
      error: '12000端口已被占用',
    });
  });
});

describe('addCustomPorts: ranges', () => {
  it('adds every port of start-end', () => {
    expect(addCustomPorts('12000-12002', ctx())).toEqual({
      ok: true,
      ports: [12000, 12001, 12002],
      skippedOccupied: 0,
      skippedDuplicate: 0,
    });
  });

  it('refuses a reversed or out-of-range range', () => {
    const error = '端口范围格式不正确，请输入10000-65535之间的端口';
    expect(addCustomPorts('12002-12000', ctx())).toEqual({ ok: false, error });
    expect(addCustomPorts('12000-12000', ctx())).toEqual({ ok: false, error });
    expect(addCustomPorts('9990-10002', ctx())).toEqual({ ok: false, error });
    expect(addCustomPorts('65530-65536', ctx())).toEqual({ ok: false, error });
  });

  it('skips occupied and duplicate ports and counts them', () => {
    const result = addCustomPorts('12000-12004', ctx({ added: [12001], occupied: [12003] }));
    expect(result).toEqual({
      ok: true,
      ports: [12000, 12002, 12004],
      skippedOccupied: 1,
      skippedDuplicate: 1,
    });
    if (result.ok) expect(skippedReport(result)).toBe('已添加3个端口，跳过1个已占用端口、1个重复端口');
  });

  it('when every port is skipped, says so', () => {
    expect(addCustomPorts('12000-12001', ctx({ added: [12000], occupied: [12001] }))).toEqual({
      ok: false,
      error: '所有端口都已被占用或重复',
    });
  });

  it('refuses a range that would exceed five ports, even a huge one, quickly', () => {
    expect(addCustomPorts('12000-12005', ctx())).toEqual({ ok: false, error: '最多只能添加5个自定义端口' });
    expect(addCustomPorts('10000-65535', ctx())).toEqual({ ok: false, error: '最多只能添加5个自定义端口' });
  });
});

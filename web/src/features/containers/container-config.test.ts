import { describe, expect, it } from 'vitest';
import { checkContainerPort, checkMountRow, checkMounts, frameworkPortsOf } from './container-config';

const ctx = { added: [] as number[], frameworkPorts: [22, 8888, 10001, 10002] };

describe('custom ports of an existing container', () => {
  it('accepts an integer from 10000 to 20000', () => {
    expect(checkContainerPort('12000', ctx)).toEqual({ ok: true, port: 12000 });
    expect(checkContainerPort(' 10000 ', ctx)).toEqual({ ok: true, port: 10000 });
    expect(checkContainerPort('20000', ctx)).toEqual({ ok: true, port: 20000 });
  });

  it('says 请输入有效的端口号 for anything that is not a whole number', () => {
    for (const bad of ['', 'abc', '12.5', '-12000', '12000-12002']) {
      expect(checkContainerPort(bad, ctx)).toEqual({ ok: false, error: '请输入有效的端口号' });
    }
  });

  it('refuses ports outside 10000-20000', () => {
    for (const bad of ['9999', '20001', '65535']) {
      expect(checkContainerPort(bad, ctx)).toEqual({ ok: false, error: '端口号必须在10000-20000之间' });
    }
  });

  it('refuses a framework port, a port already added and a sixth port', () => {
    expect(checkContainerPort('10001', ctx)).toEqual({ ok: false, error: '该端口与框架默认端口重复' });
    expect(checkContainerPort('12000', { ...ctx, added: [12000] })).toEqual({
      ok: false,
      error: '该端口已添加',
    });
    expect(checkContainerPort('12005', { ...ctx, added: [12000, 12001, 12002, 12003, 12004] })).toEqual({
      ok: false,
      error: '最多只能添加5个自定义端口',
    });
  });

  it('framework ports are the container ports and the host ports they are published on', () => {
    expect(frameworkPortsOf({ frame_ports: { '22': 10001, '8888': 10002 } }).sort()).toEqual([
      10001, 10002, 22, 8888,
    ]);
    expect(frameworkPortsOf({ frame_ports: {} })).toEqual([]);
  });
});

describe('mounts of an existing container', () => {
  it('needs both paths', () => {
    expect(checkMountRow({ source: '', target: '/data' })).toBe('请完善所有挂载点配置');
    expect(checkMountRow({ source: 'data', target: ' ' })).toBe('请完善所有挂载点配置');
  });

  it('the source is letters and digits only', () => {
    expect(checkMountRow({ source: 'data-1', target: '/data' })).toBe('挂载点源路径只能包含字母和数字');
    expect(checkMountRow({ source: '../etc', target: '/data' })).toBe('挂载点源路径只能包含字母和数字');
  });

  it('the target starts with /', () => {
    expect(checkMountRow({ source: 'data1', target: 'data' })).toBe('挂载点目标路径必须以 / 开头');
    expect(checkMountRow({ source: 'data1', target: '/root/data' })).toBeNull();
  });

  it('at most five', () => {
    const row = { source: 'a1', target: '/a' };
    expect(checkMounts([row, row, row, row, row])).toBeNull();
    expect(checkMounts([row, row, row, row, row, row])).toBe('最多只能添加5个挂载点');
  });
});

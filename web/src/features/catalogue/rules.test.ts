import { describe, expect, it } from 'vitest';
import { versionInputFrom } from './components/version-dialog';
import {
  checkCustomPorts,
  checkDefaultMounts,
  checkIconUrl,
  checkImageRef,
  checkPortRows,
  checkYuan,
  customPortsFrom,
  portRowsFrom,
  portsMapFrom,
} from './rules';

describe('port maps', () => {
  it('round-trip between the API map and editor rows, custom kept apart', () => {
    const ports = { ssh: 22, jupyter: 8888, custom: 'rdp:3389' };
    expect(portRowsFrom(ports)).toEqual([
      { name: 'ssh', port: 22 },
      { name: 'jupyter', port: 8888 },
    ]);
    expect(customPortsFrom(ports)).toBe('rdp:3389');
    expect(portsMapFrom([{ name: ' ssh ', port: 22 }])).toEqual({ ssh: 22 });
  });

  it('checks names and numbers the way the server does', () => {
    expect(checkPortRows([{ name: 'ssh', port: 22 }])).toBeNull();
    expect(checkPortRows([{ name: 'SSH', port: 22 }])).toBe('端口名只能包含小写字母、数字、下划线和横线');
    expect(checkPortRows([{ name: '', port: 22 }])).toBe('端口名只能包含小写字母、数字、下划线和横线');
    expect(checkPortRows([{ name: 'custom', port: 1 }])).toBe('端口名 custom 保留给 Windows 自定义端口');
    expect(
      checkPortRows([
        { name: 'a', port: 1 },
        { name: 'a', port: 2 },
      ]),
    ).toBe('端口名重复');
    expect(checkPortRows([{ name: 'a', port: null }])).toBe('端口为 1-65535');
    expect(checkPortRows([{ name: 'a', port: 70000 }])).toBe('端口为 1-65535');
  });

  it('the Windows custom list is name:port, comma separated', () => {
    expect(checkCustomPorts('')).toBeNull();
    expect(checkCustomPorts('rdp:3389,ssh:22')).toBeNull();
    expect(checkCustomPorts('rdp=3389')).toBe('custom 端口格式应为 名称:端口,名称:端口');
    expect(checkCustomPorts('rdp:3389,')).toBe('custom 端口格式应为 名称:端口,名称:端口');
    expect(checkCustomPorts('rdp:99999')).toBe('custom 端口格式应为 名称:端口,名称:端口');
  });

  it('a version carries the custom list only when it is a Windows version', () => {
    const values = {
      version: ' win10 ',
      image: 'gpucloud/win:1',
      cuda_version: '12.6',
      ports: [{ name: 'ssh', port: 22 }],
      custom: 'rdp:3389',
      mounts: [{ source: 'data', target: '/data' }],
      extra_driver_capabilities: ['video'],
    };
    expect(versionInputFrom({ ...values, system_type: 'windows' })).toEqual({
      version: 'win10',
      image: 'gpucloud/win:1',
      cuda_version: '12.6',
      system_type: 'windows',
      ports: { ssh: 22, custom: 'rdp:3389' },
      mounts: [{ source: 'data', target: '/data' }],
      extra_driver_capabilities: ['video'],
    });
    expect(versionInputFrom({ ...values, system_type: 'ubuntu' }).ports).toEqual({ ssh: 22 });
  });
});

describe('other catalogue fields', () => {
  it('image references, icon addresses, default mounts and prices', () => {
    expect(checkImageRef('pytorch/pytorch:2.5.1-cuda12.4')).toBeNull();
    expect(checkImageRef('')).toBe('请输入镜像地址');
    expect(checkImageRef('PyTorch Latest')).toBe('镜像地址格式不正确');
    expect(checkIconUrl('')).toBeNull();
    expect(checkIconUrl('https://cdn.example/a.png')).toBeNull();
    expect(checkIconUrl('/icons/a.png')).toBeNull();
    expect(checkIconUrl('javascript:alert(1)')).toBe('图标地址须以 http://、https:// 或 / 开头');
    expect(checkDefaultMounts([{ source: 'd', target: '/d' }])).toBeNull();
    expect(checkDefaultMounts([{ source: '', target: '/d' }])).toBe('请完善所有挂载点配置');
    expect(checkDefaultMounts([{ source: 'd', target: 'd' }])).toBe(
      '挂载路径格式不正确，必须以/开头且只能包含字母、数字、下划线、点、横线',
    );
    expect(checkYuan(1.99, '单价')).toBeNull();
    expect(checkYuan(null, '单价')).toBe('请输入单价');
    expect(checkYuan(-1, '单价')).toBe('单价不能为负数');
    expect(checkYuan(1.999, '单价')).toBe('单价最多两位小数');
  });
});

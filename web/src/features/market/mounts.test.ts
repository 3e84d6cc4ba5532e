import { describe, expect, it } from 'vitest';
import { canAddMount, validateMounts } from './mounts';

const mount = (source: string, target: string) => ({ source, target });

describe('mounts at purchase', () => {
  it('allows up to five mounts', () => {
    const four = Array.from({ length: 4 }, (_, i) => mount(`v${i}`, `/data${i}`));
    expect(canAddMount(four)).toBeNull();
    expect(canAddMount([...four, mount('v4', '/data4')])).toBe('最多只能添加5个挂载点');
    expect(validateMounts([...four, mount('v4', '/d4'), mount('v5', '/d5')])).toBe('最多只能添加5个挂载点');
  });

  it('needs both source and target', () => {
    expect(validateMounts([mount('vol', '')])).toBe('请完善所有挂载点配置');
    expect(validateMounts([mount(' ', '/data')])).toBe('请完善所有挂载点配置');
  });

  it('needs a target starting with / made of letters, digits, _, /, . and -', () => {
    const message = '挂载路径格式不正确，必须以/开头且只能包含字母、数字、下划线、点、横线';
    expect(validateMounts([mount('vol', 'data')])).toBe(message);
    expect(validateMounts([mount('vol', '/data dir')])).toBe(message);
    expect(validateMounts([mount('vol', '/数据')])).toBe(message);
    expect(validateMounts([mount('vol', '/root/my_data-1.0')])).toBeNull();
    expect(validateMounts([])).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { anImage } from './test-fixtures';
import {
  anySaving,
  checkDescription,
  checkImageName,
  checkImageTag,
  filterPackages,
  imageBody,
  MSG_DESCRIPTION_TOO_LONG,
  MSG_NAME_PATTERN,
  MSG_NAME_REQUIRED,
  MSG_NAME_TOO_LONG,
  MSG_TAG_PATTERN,
  statusLabel,
} from './types';

describe('image form rules (the server’s)', () => {
  it('name: required, at most 32, lowercase letters, digits, . _ -, starting with a letter or digit', () => {
    expect(checkImageName('')).toBe(MSG_NAME_REQUIRED);
    expect(checkImageName('   ')).toBe(MSG_NAME_REQUIRED);
    expect(checkImageName('a'.repeat(33))).toBe(MSG_NAME_TOO_LONG);
    expect(checkImageName('a'.repeat(32))).toBeNull();
    for (const bad of ['My-env', '-env', '.env', '_env', 'my env', 'env:1', 'env/1']) {
      expect(checkImageName(bad)).toBe(MSG_NAME_PATTERN);
    }
    for (const good of ['env', '0env', 'my-env_1.2']) expect(checkImageName(good)).toBeNull();
  });

  it('tag: empty is latest; otherwise letters, digits, . _ -, not starting with . or -, at most 64', () => {
    expect(checkImageTag('')).toBeNull();
    for (const good of ['latest', 'V1.0', '_x', 'a'.repeat(64)]) expect(checkImageTag(good)).toBeNull();
    for (const bad of ['.v1', '-v1', 'v 1', 'a'.repeat(65), 'v1:2'])
      expect(checkImageTag(bad)).toBe(MSG_TAG_PATTERN);
    expect(imageBody({ name: ' env ', tag: ' ', description: ' x ' })).toEqual({
      name: 'env',
      tag: 'latest',
      description: 'x',
    });
  });

  it('description: at most 200 characters', () => {
    expect(checkDescription('字'.repeat(200))).toBeNull();
    expect(checkDescription('字'.repeat(201))).toBe(MSG_DESCRIPTION_TOO_LONG);
  });
});

describe('image helpers', () => {
  it('labels the status and knows when to poll', () => {
    expect(statusLabel({ status: 'saving', progress: 42.4 })).toBe('保存中 42%');
    expect(statusLabel({ status: 'ready', progress: 100 })).toBe('可用');
    expect(statusLabel({ status: 'failed', progress: 10 })).toBe('失败');
    expect(anySaving([anImage(), anImage({ status: 'saving' })])).toBe(true);
    expect(anySaving([anImage(), anImage({ status: 'failed' })])).toBe(false);
    expect(anySaving(undefined)).toBe(false);
  });

  it('filters packages by name or version, case-insensitively', () => {
    const list = [
      { name: 'torch', version: '2.1.0' },
      { name: 'Pillow', version: '10.0.1' },
    ];
    expect(filterPackages(list, 'pil').map((p) => p.name)).toEqual(['Pillow']);
    expect(filterPackages(list, '2.1').map((p) => p.name)).toEqual(['torch']);
    expect(filterPackages(list, ' ')).toHaveLength(2);
  });
});

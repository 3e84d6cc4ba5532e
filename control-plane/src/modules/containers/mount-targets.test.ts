import { describe, expect, it } from 'vitest';
import { parse } from '../../framework/validate.js';
import { versionSchema } from '../catalogue/schema.js';
import { MSG_MOUNT_TARGET, mountTargetProblem, purchaseSchema, updateMountsSchema } from './schema.js';

/** A purchase body that passes every rule but the mounts'. */
const purchase = (target: string) => ({
  gpuCount: 1,
  framework: 1,
  frameworkVersion: 1,
  agreeTerms: true,
  billing_type: 'hourly',
  total_price: 1,
  mounts: [{ source: 'data', target }],
});

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as { detail: string }).detail;
  }
  return 'accepted';
}

describe('one rule for mount targets (purchase, existing container, framework version)', () => {
  const reserved = [
    '/',
    '/proc',
    '/proc/sys',
    '/sys',
    '/dev',
    '/dev/shm',
    '/etc',
    '/etc/',
    '/usr',
    '/bin',
    '/var',
    '/run',
    '/lib',
    '/root/.ssh',
    '/root/.ssh/keys',
    '/.gpucloud',
    '/.gpucloud/staged',
  ];

  it.each(reserved)(
    '%s is refused, with the same words at purchase and on an existing container',
    (target) => {
      const words = mountTargetProblem(target);
      expect(words).toBe(`不能挂载到系统目录 ${target.replace(/(.)\/$/, '$1')}`);
      expect(refusal(() => parse(purchaseSchema, purchase(target)))).toBe(words);
      expect(refusal(() => parse(updateMountsSchema, { mounts: [{ source: 'data', target }] }))).toBe(words);
      // A framework version's default mounts are what its purchases will ask for.
      const version = { version: '1', image: 'ubuntu:22.04', mounts: [{ source: 'data', target }] };
      expect(refusal(() => parse(versionSchema, version))).toBe(words);
    },
  );

  it.each(['/./etc', '//etc', '/data/../etc', '/data//x', '/a b', `/${'a'.repeat(300)}`])(
    '%s is malformed for both',
    (target) => {
      expect(mountTargetProblem(target)).toBe(MSG_MOUNT_TARGET);
      expect(refusal(() => parse(purchaseSchema, purchase(target)))).toBe(MSG_MOUNT_TARGET);
      expect(refusal(() => parse(updateMountsSchema, { mounts: [{ source: 'data', target }] }))).toBe(
        MSG_MOUNT_TARGET,
      );
    },
  );

  it.each(['/data', '/root/work', '/mnt/later', '/home/user/.cache', '/etc2', '/procfs', '/data/'])(
    '%s is accepted by both',
    (target) => {
      expect(mountTargetProblem(target)).toBeUndefined();
      expect(parse(purchaseSchema, purchase(target)).mounts).toEqual([{ source: 'data', target }]);
      expect(parse(updateMountsSchema, { mounts: [{ source: 'data', target }] }).mounts).toEqual([
        { source: 'data', target },
      ]);
    },
  );

  it('the existing container dialog keeps its own words first (spec)', () => {
    expect(refusal(() => parse(updateMountsSchema, { mounts: [{ source: 'data', target: 'x' }] }))).toBe(
      '挂载点目标路径必须以 / 开头',
    );
    expect(refusal(() => parse(updateMountsSchema, { mounts: [{ source: 'a-b', target: '/x' }] }))).toBe(
      '挂载点源路径只能包含字母和数字',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from './errors.js';
import { MAX_ID, MAX_PAGE, offsetField, pageField } from './fields.js';
import { containerIdParam, fieldName, holdsNul, idField, idParam, MSG_NUL, parse } from './validate.js';

/** The detail `parse` answers for `input`. */
function detail(schema: z.ZodTypeAny, input: unknown): string {
  try {
    parse(schema, input);
  } catch (err) {
    if (err instanceof AppError) {
      expect(err.status).toBe(400);
      return err.detail;
    }
    throw err;
  }
  throw new Error('parsed');
}

const HAN = /[\u4e00-\u9fff]/;

describe('zod messages in Chinese', () => {
  const body = z.object({
    amount: z.number(),
    name: z.string().min(3).max(5),
    exact: z.string().length(6).optional(),
    kind: z.enum(['a', 'b']).optional(),
    agree: z.literal(true).optional(),
    count: z.number().int().min(1).max(8).optional(),
    items: z.array(z.string()).min(1).max(2).optional(),
    mounts: z.array(z.object({ target: z.string() })).optional(),
    mail: z.string().email().optional(),
    code: z.string().regex(/^\d+$/).optional(),
    slash: z.string().startsWith('/').optional(),
    ok: z.boolean().optional(),
    checked: z
      .string()
      .refine((v) => v === 'x')
      .optional(),
    finite: z.number().finite().optional(),
    when: z.date().optional(),
  });
  const valid = { amount: 1, name: 'abcd' };

  it.each([
    [{ ...valid, amount: 'x' }, '字段 amount 应为数字'],
    [{ name: 'abcd' }, '缺少必填字段 amount'],
    [{ ...valid, name: 5 }, '字段 name 应为字符串'],
    [{ ...valid, name: 'ab' }, '字段 name 至少需要3个字符'],
    [{ ...valid, name: 'abcdef' }, '字段 name 不能超过5个字符'],
    [{ ...valid, exact: 'abc' }, '字段 exact 应为6个字符'],
    [{ ...valid, kind: 'c' }, '字段 kind 只能是 a、b'],
    [{ ...valid, agree: false }, '字段 agree 只能是 true'],
    [{ ...valid, count: 1.5 }, '字段 count 应为整数'],
    [{ ...valid, count: 0 }, '字段 count 不能小于1'],
    [{ ...valid, count: 9 }, '字段 count 不能大于8'],
    [{ ...valid, items: [] }, '字段 items 至少需要1项'],
    [{ ...valid, items: ['a', 'b', 'c'] }, '字段 items 最多2项'],
    [{ ...valid, items: {} }, '字段 items 应为数组'],
    [{ ...valid, mounts: [{ target: 1 }] }, '字段 mounts[0].target 应为字符串'],
    [{ ...valid, mounts: [[]] }, '字段 mounts[0] 应为对象'],
    [{ ...valid, mail: 'nope' }, '请输入正确的邮箱地址'],
    [{ ...valid, code: 'x' }, '字段 code 格式不正确'],
    [{ ...valid, slash: 'x' }, '字段 slash 必须以 / 开头'],
    [{ ...valid, ok: 'yes' }, '字段 ok 应为布尔值'],
    [{ ...valid, checked: 'y' }, '字段 checked 不正确'],
    [{ ...valid, finite: Number.POSITIVE_INFINITY }, '字段 finite 应为有限的数字'],
    [[], '请求参数应为对象'],
    [undefined, '缺少请求参数'],
  ])('%j → %s', (input, message) => {
    expect(detail(body, input)).toBe(message);
  });

  it('keeps every message a schema sets itself (the spec’s words)', () => {
    const schema = z.object({
      amount: z
        .number({ required_error: '请输入充值金额', invalid_type_error: '请输入充值金额' })
        .min(1, '最少为1元'),
      method: z.enum(['wechat'], { errorMap: () => ({ message: '暂不支持该支付方式' }) }),
    });
    expect(detail(schema, { method: 'wechat' })).toBe('请输入充值金额');
    expect(detail(schema, { amount: 'x', method: 'wechat' })).toBe('请输入充值金额');
    expect(detail(schema, { amount: 0, method: 'wechat' })).toBe('最少为1元');
    expect(detail(schema, { amount: 1, method: 'alipay' })).toBe('暂不支持该支付方式');
    // A schema that words only absence gets ours for a wrong type.
    const onlyRequired = z.object({ username: z.string({ required_error: '请输入用户名' }) });
    expect(detail(onlyRequired, {})).toBe('请输入用户名');
    expect(detail(onlyRequired, { username: 1 })).toBe('字段 username 应为字符串');
  });

  it('never repeats a key the client chose', () => {
    expect(fieldName(['env', 'PATH', 0])).toBe('env.PATH[0]');
    expect(fieldName(['env', 'Invalid value; <b>', 'x'])).toBe('env.*.x');
    const strict = z.object({ a: z.string() }).strict();
    expect(detail(strict, { a: 'x', b: 1 })).toBe('请求参数包含不支持的字段：b');
    expect(detail(strict, { a: 'x', 'Expected x': 1 })).toBe('请求参数包含不支持的字段');
  });

  it('every issue a schema can raise reads as Chinese, without zod’s English', () => {
    const junk: unknown[] = [null, 1, 'x', [], {}, [1], { a: 1 }, true, 1e308, -1];
    const schemas: z.ZodTypeAny[] = [
      z.object({ a: z.union([z.string(), z.number()]) }),
      z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') }), z.object({ kind: z.literal('b') })]),
      z.record(z.string(), z.number()),
      z.tuple([z.string(), z.number()]),
      z.string().url(),
      z.string().uuid(),
      z.string().datetime(),
      z.number().multipleOf(5),
      z.bigint(),
      z.set(z.string()),
      z.map(z.string(), z.string()),
      z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })),
      z.date(),
      z.nativeEnum({ A: 'a' }),
    ];
    for (const schema of schemas) {
      for (const input of junk) {
        const result = schema.safeParse(input);
        if (result.success) continue;
        for (const issue of result.error.issues) {
          expect(issue.message, JSON.stringify(issue)).toMatch(HAN);
          expect(issue.message).not.toMatch(/Expected|Required|Invalid|must/);
        }
      }
    }
  });
});

describe('no NUL anywhere in a request', () => {
  const schema = z.object({ name: z.string(), tags: z.array(z.string()).optional() }).passthrough();

  it('refuses NUL in a value, a nested value or a key, before the schema', () => {
    expect(detail(schema, { name: 'a\u0000b' })).toBe(MSG_NUL);
    expect(detail(schema, { name: 'a', tags: ['x', '\u0000'] })).toBe(MSG_NUL);
    expect(detail(schema, { name: 'a', extra: { deep: [{ '\u0000': 1 }] } })).toBe(MSG_NUL);
    expect(detail(schema, { name: 1, other: '\u0000' })).toBe(MSG_NUL);
    expect(parse(schema, { name: 'a' })).toEqual({ name: 'a' });
  });

  it('walks any depth without recursion', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(holdsNul(deep)).toBe(true);
    expect(holdsNul({ a: [1, 2, { b: 'fine' }] })).toBe(false);
  });
});

describe('ids', () => {
  it('idParam takes positive safe integers written as digits only', () => {
    expect(idParam('42')).toBe(42);
    for (const bad of [
      undefined,
      '',
      '0',
      '-1',
      '1.5',
      '1e3',
      '1e308',
      '9007199254740993',
      'abc',
      ' 1',
      '0x10',
    ]) {
      expect(() => idParam(bad), String(bad)).toThrow('无效的编号');
    }
  });

  it('containerIdParam takes only the ids the platform makes', () => {
    expect(containerIdParam('c-abc234xyz')).toBe('c-abc234xyz');
    for (const bad of [undefined, '', 'c-', 'c-\u0000aaaaaa', '42', `c-${'a'.repeat(30)}`]) {
      expect(() => containerIdParam(bad)).toThrow('无效的容器编号');
    }
  });

  it('idField refuses 1e308, Infinity, fractions, zero and negatives with the given words', () => {
    const schema = z.object({ id: idField('请选择订单') });
    for (const bad of [1e308, 2 ** 53, 1.5, 0, -1, '1', null]) {
      expect(detail(schema, { id: bad }), String(bad)).toBe('请选择订单');
    }
    expect(parse(schema, { id: MAX_ID })).toEqual({ id: MAX_ID });
    const coerced = z.object({ id: idField('请选择订单', { coerce: true }) });
    expect(parse(coerced, { id: '7' })).toEqual({ id: 7 });
    expect(detail(coerced, { id: '1e308' })).toBe('请选择订单');
  });

  it('pages and offsets are bounded', () => {
    const q = z.object({ page: pageField(), skip: offsetField() });
    expect(parse(q, {})).toEqual({ page: 1, skip: 0 });
    expect(detail(q, { page: String(MAX_PAGE + 1) })).toBe(`页码为 1-${MAX_PAGE}`);
    expect(detail(q, { page: '1e308' })).toBe(`页码为 1-${MAX_PAGE}`);
    expect(detail(q, { skip: 'abc' })).toMatch(/^偏移量为/);
  });
});

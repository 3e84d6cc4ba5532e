import { type ZodErrorMap, ZodIssueCode, ZodParsedType, z } from 'zod';
import { badRequest, zodDetail } from './errors.js';

export { idField, MAX_ID } from './fields.js';

/** A string of a request may not hold NUL: PostgreSQL refuses it in text (a 500 otherwise). */
export const MSG_NUL = '输入不能包含空字符';
export const MSG_BAD_ID = '无效的编号';

/** Parses `input` with `schema`; a failure is a 400 with the schema's Chinese message. */
export function parse<T extends z.ZodTypeAny>(schema: T, input: unknown): z.output<T> {
  if (holdsNul(input)) throw badRequest(MSG_NUL, 'VALIDATION_FAILED');
  const result = schema.safeParse(input);
  if (!result.success) throw badRequest(zodDetail(result.error), 'VALIDATION_FAILED');
  return result.data;
}

/** A positive integer id from a route parameter. */
export function idParam(value: string | undefined): number {
  if (value === undefined || !/^\d{1,16}$/.test(value)) throw badRequest(MSG_BAD_ID, 'BAD_ID');
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw badRequest(MSG_BAD_ID, 'BAD_ID');
  return id;
}

/** The container ids the platform makes (`c-…`, see framework/ids.ts). */
export const CONTAINER_ID_PATTERN = /^c-[a-z0-9]{6,24}$/;

/** A container id from a route parameter. */
export function containerIdParam(value: string | undefined): string {
  if (!value || !CONTAINER_ID_PATTERN.test(value)) throw badRequest('无效的容器编号', 'BAD_ID');
  return value;
}

/** Whether a string anywhere in `input` (a value or a key) holds NUL; iterative, any depth. */
export function holdsNul(input: unknown): boolean {
  const pending: unknown[] = [input];
  let seen = 0;
  while (pending.length > 0) {
    const value = pending.pop();
    // A body is at most 1 MB of JSON: this bounds the walk all the same.
    if (++seen > 1_000_000) return false;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

// ------------------------------------------------------------------ Chinese messages for zod

const TYPE_NAMES: Partial<Record<string, string>> = {
  string: '字符串',
  number: '数字',
  integer: '整数',
  bigint: '整数',
  boolean: '布尔值',
  object: '对象',
  array: '数组',
  date: '日期',
  null: 'null',
  nan: '数字',
  map: '对象',
  set: '数组',
};

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * The field a path names, as the user sent it: `amount`, `mounts[0].target`. A key the client
 * chose (a record's key) that is not a plain name is left out, so the message never repeats
 * arbitrary input.
 */
export function fieldName(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (SIMPLE_KEY.test(part)) out += out ? `.${part}` : part;
    else out += out ? '.*' : '*';
  }
  return out;
}

function typeName(type: string): string {
  return TYPE_NAMES[type] ?? '正确的类型';
}

function quoteValues(values: readonly unknown[]): string {
  const shown = values.slice(0, 12).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return `${shown.join('、')}${values.length > 12 ? ' 等' : ''}`;
}

/** The text of a number bound in a message (dates as ISO). */
function bound(value: number | bigint, type: string): string {
  if (type === 'date') return new Date(Number(value)).toISOString();
  return String(value);
}

/**
 * Zod's default (English) messages in Chinese, naming the field. A message a schema sets itself
 * (the spec's words) is kept: zod applies a schema's own message and error map after this one.
 */
export const chineseErrorMap: ZodErrorMap = (issue) => {
  const name = fieldName(issue.path);
  const field = name ? `字段 ${name} ` : '请求参数';
  switch (issue.code) {
    case ZodIssueCode.invalid_type:
      if (issue.received === ZodParsedType.undefined) {
        return { message: name ? `缺少必填字段 ${name}` : '缺少请求参数' };
      }
      return { message: `${field}应为${typeName(issue.expected)}` };
    case ZodIssueCode.invalid_literal:
      return { message: `${field}只能是 ${quoteValues([issue.expected])}` };
    case ZodIssueCode.unrecognized_keys: {
      const keys = issue.keys.filter((k) => SIMPLE_KEY.test(k));
      return {
        message:
          keys.length > 0 ? `${field}包含不支持的字段：${quoteValues(keys)}` : `${field}包含不支持的字段`,
      };
    }
    case ZodIssueCode.invalid_union:
    case ZodIssueCode.invalid_union_discriminator:
      return { message: `${field}格式不正确` };
    case ZodIssueCode.invalid_enum_value:
      return { message: `${field}只能是 ${quoteValues(issue.options)}` };
    case ZodIssueCode.invalid_date:
      return { message: `${field}应为有效的日期` };
    case ZodIssueCode.invalid_string: {
      const v = issue.validation;
      if (typeof v === 'object' && 'startsWith' in v)
        return { message: `${field}必须以 ${v.startsWith} 开头` };
      if (typeof v === 'object' && 'endsWith' in v) return { message: `${field}必须以 ${v.endsWith} 结尾` };
      if (typeof v === 'object' && 'includes' in v) return { message: `${field}必须包含 ${v.includes}` };
      if (v === 'email') return { message: '请输入正确的邮箱地址' };
      if (v === 'url') return { message: `${field}应为有效的网址` };
      if (v === 'datetime' || v === 'date' || v === 'time') return { message: `${field}应为有效的时间` };
      return { message: `${field}格式不正确` };
    }
    case ZodIssueCode.too_small: {
      const n = bound(issue.minimum, issue.type);
      if (issue.type === 'string') {
        if (issue.exact) return { message: `${field}应为${n}个字符` };
        if (Number(issue.minimum) === 1 && issue.inclusive) return { message: `${field}不能为空` };
        return { message: `${field}至少需要${n}个字符` };
      }
      if (issue.type === 'array' || issue.type === 'set') {
        if (issue.exact) return { message: `${field}应为${n}项` };
        return { message: issue.inclusive ? `${field}至少需要${n}项` : `${field}应多于${n}项` };
      }
      if (issue.exact) return { message: `${field}应等于${n}` };
      return { message: issue.inclusive ? `${field}不能小于${n}` : `${field}必须大于${n}` };
    }
    case ZodIssueCode.too_big: {
      const n = bound(issue.maximum, issue.type);
      if (issue.type === 'string') {
        if (issue.exact) return { message: `${field}应为${n}个字符` };
        return { message: `${field}不能超过${n}个字符` };
      }
      if (issue.type === 'array' || issue.type === 'set') {
        if (issue.exact) return { message: `${field}应为${n}项` };
        return { message: `${field}最多${n}项` };
      }
      if (issue.exact) return { message: `${field}应等于${n}` };
      return { message: issue.inclusive ? `${field}不能大于${n}` : `${field}必须小于${n}` };
    }
    case ZodIssueCode.not_multiple_of:
      return { message: `${field}应为${String(issue.multipleOf)}的倍数` };
    case ZodIssueCode.not_finite:
      return { message: `${field}应为有限的数字` };
    case ZodIssueCode.custom:
      return { message: `${field}不正确` };
    case ZodIssueCode.invalid_intersection_types:
    case ZodIssueCode.invalid_arguments:
    case ZodIssueCode.invalid_return_type:
      return { message: `${field}不正确` };
    default:
      return { message: `${field}不正确` };
  }
};

// Installed once, when the first module that validates a request loads: every route file and
// every service that parses imports this module.
z.setErrorMap(chineseErrorMap);

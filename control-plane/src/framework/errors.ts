import type { Context, Next } from 'koa';
import { ZodError } from 'zod';

/** An error the user sees: a Chinese `detail`, a machine `code` and an HTTP status. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string, code = 'BAD_REQUEST') => new AppError(400, code, detail);
export const unauthorized = (detail = '未登录或登录已过期', code = 'UNAUTHORIZED') =>
  new AppError(401, code, detail);
export const forbidden = (detail = '没有权限执行此操作', code = 'FORBIDDEN') =>
  new AppError(403, code, detail);
export const notFound = (detail: string, code = 'NOT_FOUND') => new AppError(404, code, detail);
export const conflict = (detail: string, code = 'CONFLICT') => new AppError(409, code, detail);
export const unavailable = (detail: string, code = 'UNAVAILABLE') => new AppError(503, code, detail);
export const tooManyRequests = (detail: string, code = 'RATE_LIMITED') => new AppError(429, code, detail);

/** The first validation issue as the user-facing detail (schemas carry the spec's messages). */
export function zodDetail(error: ZodError): string {
  const issue = error.issues[0];
  return issue?.message ?? '请求参数不正确';
}

/** Maps every thrown error to `{detail, code}`; unknown errors become a 500 without internals. */
export function errorMiddleware(log: (message: string, err: unknown) => void) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api')) {
        ctx.status = 404;
        ctx.body = { detail: '接口不存在', code: 'ROUTE_NOT_FOUND' };
      }
    } catch (err) {
      if (err instanceof AppError) {
        ctx.status = err.status;
        ctx.body = { detail: err.detail, code: err.code };
      } else if (err instanceof ZodError) {
        ctx.status = 400;
        ctx.body = { detail: zodDetail(err), code: 'VALIDATION_FAILED' };
      } else if (isHttpError(err)) {
        ctx.status = err.status;
        ctx.body = { detail: err.status === 413 ? '请求体过大' : '请求格式不正确', code: 'BAD_REQUEST' };
      } else {
        log(`unhandled error on ${ctx.method} ${ctx.path}`, err);
        ctx.status = 500;
        ctx.body = { detail: '服务器内部错误', code: 'INTERNAL' };
      }
    }
  };
}

function isHttpError(err: unknown): err is { status: number } {
  return (
    typeof err === 'object' &&
    err !== null &&
    'status' in err &&
    typeof (err as { status: unknown }).status === 'number' &&
    (err as { status: number }).status >= 400 &&
    (err as { status: number }).status < 500
  );
}

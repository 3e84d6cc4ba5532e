import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { ZodError } from 'zod';

/**
 * An error the user sees: a Chinese `detail`, a machine `code` and an HTTP status. `cause` keeps
 * what went wrong underneath (a node's answer, a database error): logged, never shown.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    options: { cause?: unknown } = {},
  ) {
    super(detail, options);
  }

  /**
   * A failure of ours or of a node (a 500, or a 5xx with a cause underneath), as opposed to a
   * refusal of the request or a known state such as "no storage node yet" (503 without a cause).
   */
  get unexpected(): boolean {
    return this.status === 500 || (this.status > 500 && this.cause !== undefined);
  }
}

export const INTERNAL_DETAIL = '服务器内部错误';

/** Something that should not happen: a 500 that keeps its cause for the log. */
export const internalError = (cause: unknown) => new AppError(500, 'INTERNAL', INTERNAL_DETAIL, { cause });

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

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** A request id a proxy in front may have set: short, printable, no spaces. */
const FORWARDED_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The request's id: the one a proxy in front set (X-Request-Id), else a new one. */
export function requestIdOf(forwarded: string | undefined): string {
  return forwarded && FORWARDED_ID.test(forwarded) ? forwarded : randomUUID().slice(0, 8);
}

/**
 * Gives every request an id (a proxy's X-Request-Id, else a new one), answered in the
 * X-Request-Id header, and maps every thrown error to `{detail, code}`. A failure (see
 * AppError.unexpected, or an error that is not an AppError) is logged once with the request id,
 * the request and its cause; its answer carries `request_id`, and a 500 says it in the detail, so
 * a user can quote it.
 */
export function errorMiddleware(log: (message: string, err: unknown) => void) {
  return async (ctx: Context, next: Next) => {
    const requestId = requestIdOf(ctx.get(REQUEST_ID_HEADER));
    ctx.state.requestId = requestId;
    ctx.set(REQUEST_ID_HEADER, requestId);
    const failed = (status: number, code: string, detail: string, cause: unknown) => {
      log(`${ctx.method} ${ctx.path} failed (${status} ${code}, request ${requestId})`, cause);
      ctx.status = status;
      // Our own failure says the id in its words; a node's failure keeps the node's words.
      const said = status === 500 ? `${detail}（请求编号 ${requestId}）` : detail;
      ctx.body = { detail: said, code, request_id: requestId };
    };
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api')) {
        ctx.status = 404;
        ctx.body = { detail: '接口不存在', code: 'ROUTE_NOT_FOUND' };
      }
    } catch (err) {
      if (err instanceof AppError && err.unexpected) {
        failed(err.status, err.code, err.detail, err.cause ?? err);
      } else if (err instanceof AppError) {
        ctx.status = err.status;
        ctx.body = { detail: err.detail, code: err.code };
      } else if (err instanceof ZodError) {
        ctx.status = 400;
        ctx.body = { detail: zodDetail(err), code: 'VALIDATION_FAILED' };
      } else if (isHttpError(err)) {
        ctx.status = err.status;
        ctx.body = { detail: err.status === 413 ? '请求体过大' : '请求格式不正确', code: 'BAD_REQUEST' };
      } else {
        failed(500, 'INTERNAL', INTERNAL_DETAIL, err);
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

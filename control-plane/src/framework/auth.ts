import type { Context, Next, ParameterizedContext } from 'koa';
import { forbidden, unauthorized } from './errors.js';

export interface AuthUser {
  id: number;
  username: string;
  nickname: string | null;
  isAdmin: boolean;
}

export interface AppState {
  user?: AuthUser;
}

export type AppContext = ParameterizedContext<AppState>;

export interface Authenticator {
  /** The user behind a session token, or undefined when the token is unknown, expired or revoked. */
  authenticate(token: string): Promise<AuthUser | undefined>;
}

export function bearerToken(ctx: Pick<Context, 'get'>): string | undefined {
  const header = ctx.get('authorization');
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match?.[1]?.trim() || undefined;
}

/** Sets ctx.state.user when a valid bearer token is present; never rejects by itself. */
export function authenticate(authenticator: Authenticator) {
  return async (ctx: AppContext, next: Next) => {
    const token = bearerToken(ctx);
    if (token) ctx.state.user = await authenticator.authenticate(token);
    await next();
  };
}

export function currentUser(ctx: AppContext): AuthUser {
  const user = ctx.state.user;
  if (!user) throw unauthorized();
  return user;
}

export async function requireUser(ctx: AppContext, next: Next) {
  currentUser(ctx);
  await next();
}

export async function requireAdmin(ctx: AppContext, next: Next) {
  if (!currentUser(ctx).isAdmin) throw forbidden('需要管理员权限');
  await next();
}

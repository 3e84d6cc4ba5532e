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
  /** How the user was authenticated (X-API-Key only on /api/mcp/*). */
  via?: 'session' | 'api_key';
}

export type AppContext = ParameterizedContext<AppState>;

export interface Authenticator {
  /** The user behind a session token, or undefined when the token is unknown, expired or revoked. */
  authenticate(token: string): Promise<AuthUser | undefined>;
}

const BEARER = /^Bearer\s+(.+)$/i;

/** The token of an `Authorization: Bearer <token>` header. */
export function tokenOfAuthorization(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return BEARER.exec(header)?.[1]?.trim() || undefined;
}

export function bearerToken(ctx: Pick<Context, 'get'>): string | undefined {
  return tokenOfAuthorization(ctx.get('authorization'));
}

export interface ApiKeyAuthenticator {
  /** The owner of an API key, or undefined when the key is unknown or its owner disabled. */
  authenticate(key: string): Promise<AuthUser | undefined>;
}

/** Paths where an `X-API-Key` header stands in for a session (the MCP endpoints). */
export const API_KEY_PREFIX = '/api/mcp/';

/**
 * Sets ctx.state.user when a valid bearer token is present, or on /api/mcp/* a valid X-API-Key;
 * never rejects by itself (requireUser / requireAdmin do).
 */
export function authenticate(authenticator: Authenticator, apiKeys?: ApiKeyAuthenticator) {
  return async (ctx: AppContext, next: Next) => {
    const token = bearerToken(ctx);
    if (token) {
      ctx.state.user = await authenticator.authenticate(token);
      if (ctx.state.user) ctx.state.via = 'session';
    }
    const apiKey = ctx.get('x-api-key').trim();
    if (!ctx.state.user && apiKey && apiKeys && ctx.path.startsWith(API_KEY_PREFIX)) {
      ctx.state.user = await apiKeys.authenticate(apiKey);
      if (ctx.state.user) ctx.state.via = 'api_key';
    }
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

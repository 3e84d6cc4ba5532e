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
  /** How the user was authenticated (X-API-Key only where acceptsApiKey). */
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

/**
 * Paths where an `X-API-Key` header stands in for a session: the MCP endpoints and the public API a
 * script needs (containers, the market and purchases, images, the balance). Account settings, API
 * keys themselves, payments and every admin route keep asking for a signed-in session.
 */
const API_KEY_PATHS = [
  /^\/api\/mcp\//,
  /^\/api\/containers(?:\/|$)/,
  /^\/api\/cloud-products(?:\/|$)/,
  /^\/api\/images(?:\/|$)/,
  /^\/api\/frameworks(?:\/|$)/,
  /^\/api\/billing\/balance$/,
];

/** Whether an `X-API-Key` is accepted on this path (see API_KEY_PATHS). */
export function acceptsApiKey(path: string): boolean {
  return API_KEY_PATHS.some((pattern) => pattern.test(path));
}

/**
 * Sets ctx.state.user when a valid bearer token is present, or where acceptsApiKey a valid X-API-Key;
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
    if (!ctx.state.user && apiKey && apiKeys && acceptsApiKey(ctx.path)) {
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

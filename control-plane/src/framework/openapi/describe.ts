// How a module describes its HTTP routes for the OpenAPI document (document.ts builds it): each
// module's openapi.ts lists its routes with the zod schemas the routes parse requests with
// (schema.ts) and the contracts their replies follow (contract.ts), so the document is made from
// the same objects that validate and type the API. test/openapi.test.ts fails when a route of the
// app has no entry here, or an entry names no route.
import { z } from 'zod';
import { CONTAINER_ID_PATTERN } from '../validate.js';
import type { JsonSchema } from './types.js';

/**
 * Who may call a route:
 * - none: public;
 * - optional: public, and a session token changes the answer (binding WeChat to the signed-in user);
 * - user: a signed-in session (`Authorization: Bearer <token>`), and an `X-API-Key` where
 *   framework/auth.ts's acceptsApiKey says so;
 * - admin: an administrator's session (the server checks the admin flag on every call);
 * - api-key: an API key only (the MCP endpoint);
 * - registry: Docker's basic auth with a grant a node agent was given (the registry's token server).
 */
export type RouteAuth = 'none' | 'optional' | 'user' | 'admin' | 'api-key' | 'registry';

/** A reply that is not JSON (a file, a script, an HTML invoice). */
export interface FileReply {
  contentType: string;
  description: string;
  /** Bytes (a tarball) rather than text. */
  binary?: boolean;
}

export type RouteMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteDoc {
  method: RouteMethod;
  /** As the router declares it, Koa style: `/api/containers/:id/start`. */
  path: string;
  /** What the route does, in Simplified Chinese. */
  summary: string;
  description?: string;
  auth: RouteAuth;
  /** Schemas of the path parameters (zod or JSON Schema); a parameter not named here is a positive integer id. */
  params?: Record<string, JsonSchema | z.ZodTypeAny>;
  /** The zod object the route parses `ctx.query` with. */
  query?: z.ZodTypeAny;
  /** Request headers the route reads (other than the credentials). */
  headers?: { name: string; description: string; required?: boolean }[];
  /** The zod schema the route parses the body with; an optional or defaulted one may be left out. */
  body?: z.ZodTypeAny;
  /** The success status (200 unless said). */
  status?: number;
  /** The success reply: its contract's zod schema, a file, or nothing (204). */
  reply: z.ZodTypeAny | FileReply | 'empty';
  /** Refusals beyond what the route's shape implies (400 input, 401/403 auth, 404 path ids). */
  errors?: number[];
  /** The shape of the refusals where it is not errorReply's `{detail, code}` (a provider's protocol). */
  errorReply?: z.ZodTypeAny;
  /** A WebSocket: the GET is an upgrade; `description` says what the frames carry. */
  websocket?: true;
}

/** A module's routes under its tag (the module's name; `description` is the Chinese title). */
export interface RouteGroup {
  tag: { name: string; description: string };
  /** Contract schemas to show under their own names in components.schemas (export name → schema). */
  schemas?: Record<string, unknown>;
  routes: RouteDoc[];
}

export function routeGroup(
  tag: RouteGroup['tag'],
  routes: RouteDoc[],
  schemas?: Record<string, unknown>,
): RouteGroup {
  return schemas ? { tag, routes, schemas } : { tag, routes };
}

/** `{ ok: true }`: the answer of a deletion and of other commands with nothing more to say. */
export const okReply = z.object({ ok: z.literal(true) });

/** A refusal: the Chinese message the console shows and a machine code (framework/errors.ts). */
export const errorReply = z.object({
  detail: z.string(),
  code: z.string(),
  /** Present on our own failures (5xx), to quote to support. */
  request_id: z.string().optional(),
});

/** A path parameter that framework/validate.ts's idParam accepts: a positive integer. */
export const idPath: JsonSchema = { type: 'integer', minimum: 1, description: '编号（正整数）' };

/** A path parameter that containerIdParam accepts: the ids the platform makes (`c-…`). */
export const containerIdPath: JsonSchema = {
  type: 'string',
  pattern: CONTAINER_ID_PATTERN.source,
  description: '容器编号',
};

/** A path parameter of any text (a trade number). */
export const textPath = (description: string, maxLength = 64): JsonSchema => ({
  type: 'string',
  maxLength,
  description,
});

/** Replies that are text the route writes as is (scripts, checksums). */
export const textFile = (contentType: string, description: string): FileReply => ({
  contentType,
  description,
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * A reply schema written beside a route whose module has no contract for it yet: `describing<T>()`
 * takes it only if it describes exactly `T`, the type the service returns, so the two cannot drift
 * apart unnoticed (tsc fails).
 */
export const describing =
  <T>() =>
  <S extends z.ZodTypeAny>(schema: S & (Same<z.infer<S>, T> extends true ? unknown : never)): S =>
    schema;

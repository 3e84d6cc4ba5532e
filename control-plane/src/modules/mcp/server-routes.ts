import Router from '@koa/router';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  type ApiKeyAuthenticator,
  type AppContext,
  type AppState,
  type AuthUser,
  bearerToken,
} from '../../framework/auth.js';
import { unauthorized } from '../../framework/errors.js';
import { buildMcpServer } from './server.js';
import type { McpService } from './service.js';

export const MCP_SERVER_PATH = '/api/mcp/server';

/**
 * The Model Context Protocol endpoint (Streamable HTTP, stateless: a server and a transport per
 * request). Only an API key opens it, in `X-API-Key` or as `Authorization: Bearer <key>`.
 * The body parser already read the request, so the parsed JSON goes to the transport.
 */
export function mcpServerRoutes(deps: {
  mcp: McpService;
  apiKeys: ApiKeyAuthenticator;
  log: (message: string, err?: unknown) => void;
}): Router<AppState> {
  const router = new Router<AppState>();

  router.post(MCP_SERVER_PATH, async (ctx) => {
    const user = await apiKeyUser(ctx, deps.apiKeys);
    const server = buildMcpServer(deps.mcp, user, deps.log);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    ctx.res.on('close', () => {
      transport.close().catch((err) => deps.log('MCP transport close failed', err));
      server.close().catch((err) => deps.log('MCP server close failed', err));
    });
    await server.connect(transport);
    // From here on the SDK writes the response.
    ctx.respond = false;
    ctx.status = 200;
    const parsedBody = ctx.is('application/json') ? ctx.request.body : undefined;
    await transport.handleRequest(ctx.req, ctx.res, parsedBody);
  });

  // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
  router.all(MCP_SERVER_PATH, async (ctx) => {
    ctx.status = 405;
    ctx.set('Allow', 'POST');
    ctx.body = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null };
  });

  return router;
}

/** Malformed JSON to the MCP endpoint: JSON-RPC's Parse error, as MCP clients expect. */
export function mcpJsonParseError(ctx: { status: number; body: unknown }) {
  ctx.status = 400;
  ctx.body = {
    jsonrpc: '2.0',
    error: { code: -32700, message: 'Parse error: 请求不是合法的 JSON' },
    id: null,
  };
}

async function apiKeyUser(ctx: AppContext, apiKeys: ApiKeyAuthenticator): Promise<AuthUser> {
  if (ctx.state.via === 'api_key' && ctx.state.user) return ctx.state.user;
  // A session token is not enough here: the key may come in either header.
  for (const key of [ctx.get('x-api-key').trim(), bearerToken(ctx)]) {
    const user = key ? await apiKeys.authenticate(key) : undefined;
    if (user) return user;
  }
  ctx.set('WWW-Authenticate', 'Bearer realm="gpucloud-mcp"');
  throw unauthorized('API 密钥无效或缺失，请在请求头 X-API-Key 中提供 API 密钥', 'INVALID_API_KEY');
}

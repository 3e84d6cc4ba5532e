import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import websockify from 'koa-websocket';
import { type Accounts, accountRouters } from './accounts.js';
import type { AgentPool } from './agents/agent-pool.js';
import { type AppState, authenticate } from './framework/auth.js';
import { errorMiddleware } from './framework/errors.js';
import { answerFirst, fastPath, HEALTH_PATH, HEALTH_REPLY } from './framework/fast-path.js';
import { openApiRoutes } from './framework/openapi/routes.js';
import { parseTrustProxy, type TrustProxy, trustedClient } from './framework/proxy.js';
import { dispatchByPrefix } from './framework/route-dispatch.js';
import { securityHeaders } from './framework/security-headers.js';
import { consoleSite } from './framework/static.js';
import type { ControlPlaneMetrics } from './metrics/control-plane-metrics.js';
import { httpMetrics } from './metrics/http-metrics.js';
import { appRoutes } from './modules/apps/routes.js';
import type { AppsService } from './modules/apps/service.js';
import type { AuthService } from './modules/auth/service.js';
import { type Billing, billingRouters } from './modules/billing/build.js';
import { balanceRead } from './modules/billing/routes.js';
import { catalogueAdminRoutes } from './modules/catalogue/admin-routes.js';
import { catalogueRoutes } from './modules/catalogue/routes.js';
import type { CatalogueService } from './modules/catalogue/service.js';
import { cloudProductAdminRoutes } from './modules/cloud-products/admin-routes.js';
import { cloudProductRoutes } from './modules/cloud-products/routes.js';
import type { CloudProductsService } from './modules/cloud-products/service.js';
import type { ContainerConfigService } from './modules/containers/config-service.js';
import type { PurchaseService } from './modules/containers/purchase-service.js';
import { containerAdminRoutes, containerListRead, containerRoutes } from './modules/containers/routes.js';
import type { ContainersService } from './modules/containers/service.js';
import { containerWsRoutes } from './modules/containers/ws-routes.js';
import { agentBundle } from './modules/fleet/bundle.js';
import { installRoutes } from './modules/fleet/install-routes.js';
import type { JoinService } from './modules/fleet/join.js';
import { agentJoinRoutes, joinTokenAdminRoutes } from './modules/fleet/join-routes.js';
import type { UpgradeService } from './modules/fleet/upgrade.js';
import { upgradeRoutes } from './modules/fleet/upgrade-routes.js';
import { imageAdminRoutes } from './modules/images/admin-routes.js';
import { registryRoutes } from './modules/images/registry-routes.js';
import type { PlatformRegistry } from './modules/images/registry-service.js';
import { imageRoutes } from './modules/images/routes.js';
import type { ImagesService } from './modules/images/service.js';
import { mcpContainerRoutes } from './modules/mcp/routes.js';
import { MCP_SERVER_PATH, mcpJsonParseError, mcpServerRoutes } from './modules/mcp/server-routes.js';
import type { McpService } from './modules/mcp/service.js';
import type { NodeImagesService } from './modules/nodes/images.js';
import { nodeAdminRoutes } from './modules/nodes/routes.js';
import type { NodesService } from './modules/nodes/service.js';
import { storageRoutes } from './modules/storage/routes.js';
import type { StorageService } from './modules/storage/service.js';
import type { UsersService } from './modules/users/service.js';
import { apiDocument } from './openapi.js';

export interface AppDeps {
  auth: AuthService;
  accounts: Accounts;
  users: UsersService;
  nodes: NodesService;
  catalogue: CatalogueService;
  products: CloudProductsService;
  containers: ContainersService;
  purchases: PurchaseService;
  containerConfig: ContainerConfigService;
  apps: AppsService;
  storage: StorageService;
  billing: Billing;
  mcp: McpService;
  nodeImages: NodeImagesService;
  agents: AgentPool;
  /** Joining nodes (modules/fleet). */
  fleet: { join: JoinService; upgrades: UpgradeService };
  /** The image registry; its token endpoint is GET /api/registry/token. */
  registry: PlatformRegistry;
  images: ImagesService;
  webDist?: string | undefined;
  /** PUBLIC_URL: the address GPU hosts are told (the install script's control plane). */
  publicUrl?: string | undefined;
  /** Which peers' X-Forwarded-* headers are believed (TRUST_PROXY); none when unset. */
  trustProxy?: TrustProxy | undefined;
  /** Request durations by route template; /metrics on this port with METRICS_TOKEN (404 without). */
  metrics?: ControlPlaneMetrics | undefined;
  metricsToken?: string | undefined;
  log: (message: string, err?: unknown) => void;
}

/** The API's routers, in the order they are tried. */
export function apiRouters(deps: AppDeps) {
  return [
    ...accountRouters(deps.accounts),
    ...billingRouters(deps.billing),
    catalogueRoutes(deps.catalogue),
    cloudProductRoutes(deps.products),
    containerRoutes(deps),
    appRoutes(deps.apps),
    mcpContainerRoutes(deps.mcp),
    mcpServerRoutes({ mcp: deps.mcp, apiKeys: deps.accounts.apiKeys, log: deps.log }),
    storageRoutes(deps.storage),
    registryRoutes(deps.registry),
    // GET /install/*: the install script and the agent bundle, public (no session).
    installRoutes({ bundle: agentBundle, publicUrl: deps.publicUrl, log: deps.log }),
    // GET /api/openapi.json: this API's OpenAPI document, public, built once per process.
    openApiRoutes(apiDocument),
    imageRoutes(deps.images),
    imageAdminRoutes(deps.images),
    catalogueAdminRoutes(deps.catalogue),
    cloudProductAdminRoutes(deps.products),
    containerAdminRoutes(deps.containers),
    // Before the node routes: /api/admin/nodes/join-tokens is not a node id.
    joinTokenAdminRoutes(deps.fleet.join),
    agentJoinRoutes(deps.fleet.join),
    upgradeRoutes(deps.fleet.upgrades),
    nodeAdminRoutes(deps.nodes, deps.nodeImages),
  ];
}

/** The HTTP + WebSocket application; main.ts binds it to a port. */
export function createApp(deps: AppDeps) {
  const app = websockify(new Koa<AppState>());
  // Koa's own proxy trust would believe any client's X-Forwarded-For; trustedClient decides.
  app.proxy = false;
  const trust = deps.trustProxy ?? parseTrustProxy(undefined);
  const site = deps.webDist ? consoleSite(deps.webDist) : undefined;

  // The health check, the console's files and a remembered session's balance and container list
  // skip Koa altogether (see fastPath); whoever serves the app (listen(), or a test's callback())
  // gets the fast path first.
  const fast = fastPath(trust, site, {
    rememberedUser: (token) => deps.auth.rememberedUser(token),
    reads: [balanceRead(deps.billing), containerListRead(deps.containers)],
  });
  const observed = deps.metrics ? httpMetrics(deps.metrics, deps.metricsToken) : undefined;
  // Timed there too (one observe per answer), after /metrics of this port.
  answerFirst(app, observed ? observed.fastPath(fast) : fast);

  // First: it sees the status the error middleware gave.
  if (observed) app.use(observed.middleware);
  app.use(trustedClient(trust));
  app.use(securityHeaders());
  app.use(errorMiddleware(deps.log));
  // What the fast path leaves (other methods): health and the console's files still need no
  // body, no session, no router.
  app.use(async (ctx, next) => {
    if (ctx.path === HEALTH_PATH) {
      ctx.body = HEALTH_REPLY;
      return;
    }
    await next();
  });
  if (site) app.use(site.middleware);

  const parseBody = bodyParser({ jsonLimit: '1mb', enableTypes: ['json'] });
  app.use(async (ctx, next) => {
    // The MCP endpoint answers malformed JSON the JSON-RPC way (-32700 Parse error).
    if (ctx.path !== MCP_SERVER_PATH) return parseBody(ctx, next);
    let parsed = false;
    try {
      await parseBody(ctx, async () => {
        parsed = true;
      });
    } catch (err) {
      if (parsed) throw err;
      mcpJsonParseError(ctx);
      return;
    }
    await next();
  });
  app.use(authenticate(deps.auth, deps.accounts.apiKeys));
  // Only the routers with a route under the path's first segments run (framework/route-dispatch.ts).
  app.use(dispatchByPrefix(apiRouters(deps)));
  // Protocol paths never fall through to the console's HTML: a client expecting JSON gets JSON.
  app.use(async (ctx, next) => {
    await next();
    if (ctx.body === undefined && ctx.status === 404 && ctx.path.startsWith('/.well-known/')) {
      ctx.status = 404;
      ctx.body = { detail: '资源不存在', code: 'NOT_FOUND' };
    }
  });

  const ws = containerWsRoutes({
    auth: deps.auth,
    apiKeys: deps.accounts.apiKeys,
    containers: deps.containers,
    agents: deps.agents,
  });
  app.ws.use(ws.routes() as unknown as Parameters<typeof app.ws.use>[0]);
  return app;
}

// The HTTP API's OpenAPI 3.1 document, served at GET /api/openapi.json and shown by the console at
// /docs/api: every module's routes (modules/*/openapi.ts, made of the zod schemas the routes parse
// with and the contracts their replies follow) put together by framework/openapi/document.ts.
// test/openapi.test.ts fails when a route of the app is missing here or an entry names no route.
import { readFileSync } from 'node:fs';
import { HEALTH_PATH } from './framework/fast-path.js';
import { okReply, type RouteGroup, routeGroup } from './framework/openapi/describe.js';
import { buildOpenApiDocument } from './framework/openapi/document.js';
import { OPENAPI_PATH } from './framework/openapi/routes.js';
import type { OpenApiDocument } from './framework/openapi/types.js';
import { apiKeyDocs } from './modules/api-keys/openapi.js';
import { appDocs } from './modules/apps/openapi.js';
import { authDocs } from './modules/auth/openapi.js';
import { billingDocs } from './modules/billing/openapi.js';
import { catalogueDocs } from './modules/catalogue/openapi.js';
import { cloudProductDocs } from './modules/cloud-products/openapi.js';
import { containerDocs } from './modules/containers/openapi.js';
import { fleetDocs } from './modules/fleet/openapi.js';
import { imageDocs } from './modules/images/openapi.js';
import { mcpDocs } from './modules/mcp/openapi.js';
import { messageDocs } from './modules/messages/openapi.js';
import { nodeDocs } from './modules/nodes/openapi.js';
import { storageDocs } from './modules/storage/openapi.js';
import { userDocs } from './modules/users/openapi.js';
import { wechatDocs } from './modules/wechat/openapi.js';

const platformDocs = routeGroup({ name: 'platform', description: '平台' }, [
  {
    method: 'get',
    path: OPENAPI_PATH,
    summary: '本 API 的 OpenAPI 3.1 文档',
    auth: 'none',
    reply: { contentType: 'application/json', description: 'OpenAPI 3.1 文档（即本文档）' },
  },
  { method: 'get', path: HEALTH_PATH, summary: '健康检查', auth: 'none', reply: okReply },
]);

/**
 * Every route's description, by module. Contracts a later module shares (the app market's quote is
 * a cloud product) are named after the module listed first, so the market comes before the apps.
 */
export const API_ROUTE_GROUPS: RouteGroup[] = [
  authDocs,
  userDocs,
  wechatDocs,
  apiKeyDocs,
  messageDocs,
  billingDocs,
  catalogueDocs,
  cloudProductDocs,
  containerDocs,
  appDocs,
  mcpDocs,
  storageDocs,
  imageDocs,
  fleetDocs,
  nodeDocs,
  platformDocs,
];

export const API_TITLE = 'GPU 云平台控制面 API';

/** The control plane's version (its package.json), the document's info.version. */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** The whole API's document (built when asked: the route keeps the first one). */
export function apiDocument(): OpenApiDocument {
  return buildOpenApiDocument(API_ROUTE_GROUPS, {
    title: API_TITLE,
    version: packageVersion(),
    description:
      '控制面的 HTTP API。错误答复均为 {"detail": "<中文消息>", "code": "<机器码>"}。会话令牌放在 Authorization: Bearer 中；API 密钥放在 X-API-Key 请求头中，可用于容器、算力市场、镜像、框架、余额与 MCP 接口。',
  });
}

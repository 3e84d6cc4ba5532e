// Builds the OpenAPI 3.1 document from the modules' route descriptions (describe.ts). Every
// schema in it is converted from the zod objects the routes use (zod-to-json-schema), in one pass,
// so a schema used in several places is written once under components.schemas and referred to by
// $ref. The converter's draft-07 output is what OpenAPI 3.1's JSON Schema 2020-12 dialect reads as
// is here (numeric exclusiveMinimum, no tuples); its "2019-09" target still writes draft-04's
// boolean exclusiveMinimum. test/openapi.test.ts compiles every schema with a strict 2020-12 validator.
import { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { acceptsApiKey } from '../auth.js';
import { errorReply, type FileReply, idPath, type RouteDoc, type RouteGroup } from './describe.js';
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiResponse,
  OpenApiSecurityRequirement,
  OpenApiSecurityScheme,
} from './types.js';

export const OPENAPI_VERSION = '3.1.0';
const REF = '#/components/schemas/';
const JSON_TYPE = 'application/json';

export const SECURITY_SCHEMES: Record<string, OpenApiSecurityScheme> = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description: '会话令牌：登录（POST /api/auth/login）得到的 token，放在 Authorization: Bearer <token> 中',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'API 密钥：在 个人中心 → API 密钥 中创建（gpuc_…），放在 X-API-Key 请求头中',
  },
  sessionQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'WebSocket 的会话令牌：浏览器不能给 WebSocket 设置请求头，令牌放在 ?token= 中',
  },
  registryBasic: {
    type: 'http',
    scheme: 'basic',
    description: 'Docker 引擎携带节点代理得到的镜像仓库授权（Basic 认证），仅供 Docker 调用',
  },
};

const ERROR_TEXT: Record<number, string> = {
  400: '请求参数不正确（detail 说明原因）',
  401: '未登录、会话已过期或 API 密钥无效',
  402: '余额不足',
  403: '没有权限，或超出配额',
  404: '不存在，或不属于当前用户',
  405: '不支持该请求方法',
  409: '与当前状态冲突',
  429: '请求过于频繁，请稍后再试',
  502: '节点执行失败',
  503: '依赖的服务暂不可用',
};

export interface DocumentInfo {
  title: string;
  version: string;
  description?: string;
}

/** `/api/containers/:id` → `/api/containers/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

const pascal = (words: string[]) =>
  words
    .flatMap((w) => w.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join('');

/** `GET /api/containers/:id/status` → `getContainersByIdStatus` (the path is unique per method). */
export function operationId(route: Pick<RouteDoc, 'method' | 'path'>): string {
  const segments = route.path
    .split('/')
    .filter((s, i) => s && !(i === 1 && s === 'api'))
    .map((s) => (s.startsWith(':') ? `by-${s.slice(1)}` : s));
  return route.method + pascal(segments);
}

/** `containerListReply` → `ContainerList`: a contract export's name in components.schemas. */
export function componentName(exportName: string): string {
  return pascal([exportName.replace(/Reply$/, '')]);
}

/** A body schema that may be absent (optional or defaulted): the object inside, and that it may be absent. */
function unwrapOptional(schema: z.ZodTypeAny): { schema: z.ZodTypeAny; optional: boolean } {
  let current = schema;
  let optional = false;
  for (;;) {
    if (current instanceof z.ZodOptional) current = current.unwrap();
    else if (current instanceof z.ZodDefault) current = current.removeDefault();
    else return { schema: current, optional };
    optional = true;
  }
}

/** The names of the schemas put in components.schemas, each zod object under one name. */
class SchemaNames {
  readonly byName = new Map<string, z.ZodTypeAny>();
  private readonly bySchema = new Map<z.ZodTypeAny, string>();

  /** The schema's name: the one it already has, else `name`. */
  name(name: string, schema: z.ZodTypeAny): string {
    const known = this.bySchema.get(schema);
    if (known) return known;
    if (this.byName.has(name))
      throw new Error(`two different schemas are named ${name} in the OpenAPI document`);
    this.byName.set(name, schema);
    this.bySchema.set(schema, name);
    return name;
  }
}

const ref = (name: string): JsonSchema => ({ $ref: `${REF}${name}` });
const isFile = (reply: RouteDoc['reply']): reply is FileReply =>
  typeof reply === 'object' && reply !== null && 'contentType' in reply;

/** What one route needs from the conversion: the names of its body, query and reply schemas. */
interface Planned {
  route: RouteDoc;
  tag: string;
  id: string;
  body?: { name: string; optional: boolean };
  query?: string;
  reply?: string;
  error: string;
}

function security(route: RouteDoc): OpenApiSecurityRequirement[] {
  const keyAccepted = acceptsApiKey(route.path.replace(/:[A-Za-z_][A-Za-z0-9_]*/g, 'x'));
  if (route.websocket) return [{ sessionQuery: [] }, ...(keyAccepted ? [{ apiKey: [] }] : [])];
  switch (route.auth) {
    case 'none':
      return [];
    case 'optional':
      return [{}, { bearerAuth: [] }];
    case 'user':
      return [{ bearerAuth: [] }, ...(keyAccepted ? [{ apiKey: [] }] : [])];
    case 'admin':
      return [{ bearerAuth: [] }];
    case 'api-key':
      return [{ apiKey: [] }];
    case 'registry':
      return [{ registryBasic: [] }];
  }
}

function errorStatuses(route: RouteDoc): number[] {
  const statuses = new Set(route.errors ?? []);
  const takesId = /:[A-Za-z_]/.test(route.path);
  if (takesId || route.body || route.query) statuses.add(400);
  if (route.auth !== 'none' && route.auth !== 'optional') statuses.add(401);
  if (route.auth === 'admin') statuses.add(403);
  if (takesId) statuses.add(404);
  return [...statuses].sort((a, b) => a - b);
}

function successResponse(p: Planned): Record<string, OpenApiResponse> {
  const { route } = p;
  if (route.websocket) return { '101': { description: '切换到 WebSocket 协议（Switching Protocols）' } };
  const status = String(route.status ?? 200);
  if (route.reply === 'empty') return { [status]: { description: '已处理，无内容' } };
  if (isFile(route.reply)) {
    const schema: JsonSchema = route.reply.binary ? {} : { type: 'string' };
    return {
      [status]: { description: route.reply.description, content: { [route.reply.contentType]: { schema } } },
    };
  }
  return { [status]: { description: '成功', content: { [JSON_TYPE]: { schema: ref(p.reply as string) } } } };
}

/** A path parameter's schema: a string or number rule, converted on its own (it holds no $ref). */
function pathSchema(schema: JsonSchema | z.ZodTypeAny | undefined): JsonSchema {
  if (schema === undefined) return { ...idPath };
  if (!(schema instanceof z.ZodType)) return schema;
  const { $schema: _, ...converted } = zodToJsonSchema(schema, {
    target: 'jsonSchema7',
    $refStrategy: 'none',
  }) as JsonSchema & { $schema?: string };
  return converted;
}

function parameters(p: Planned, schemas: Record<string, JsonSchema>): OpenApiParameter[] {
  const { route } = p;
  const list: OpenApiParameter[] = [];
  for (const [, name] of route.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)) {
    list.push({
      name: name as string,
      in: 'path',
      required: true,
      schema: pathSchema(route.params?.[name as string]),
    });
  }
  if (p.query) {
    const query = schemas[p.query];
    if (!query?.properties) throw new Error(`the query of ${route.method} ${route.path} is not an object`);
    const required = new Set(query.required ?? []);
    for (const [name, schema] of Object.entries(query.properties)) {
      list.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  for (const header of route.headers ?? []) {
    list.push({
      name: header.name,
      in: 'header',
      required: header.required ?? false,
      description: header.description,
      schema: { type: 'string' },
    });
  }
  return list;
}

function operation(p: Planned, schemas: Record<string, JsonSchema>): OpenApiOperation {
  const { route } = p;
  const notes = [
    route.description,
    route.auth === 'admin' ? '仅管理员可调用。' : undefined,
    route.auth === 'optional' ? '无需登录；携带会话令牌时按当前用户处理。' : undefined,
  ].filter(Boolean);
  const params = parameters(p, schemas);
  const op: OpenApiOperation = {
    operationId: p.id,
    summary: route.summary,
    ...(notes.length > 0 ? { description: notes.join('\n\n') } : {}),
    tags: [p.tag],
    security: security(route),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(p.body
      ? {
          requestBody: { required: !p.body.optional, content: { [JSON_TYPE]: { schema: ref(p.body.name) } } },
        }
      : {}),
    responses: successResponse(p),
  };
  for (const status of errorStatuses(route)) {
    op.responses[String(status)] = {
      description: ERROR_TEXT[status] ?? '请求被拒绝',
      content: { [JSON_TYPE]: { schema: ref(p.error) } },
    };
  }
  if (route.auth === 'admin') op['x-admin'] = true;
  if (route.websocket) op['x-websocket'] = true;
  return op;
}

const COMPONENT_REF = /^#\/components\/schemas\/[^/]+$/;

/**
 * zod objects share their fields (`extend`, a field rule used by several schemas), and the
 * converter refers to a field's first appearance (`…/Profile/properties/id`). Those refs are
 * replaced by a copy of what they point to, so the document refers only to whole components.
 */
function inlineInnerRefs(schemas: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const root = { components: { schemas } };
  const target = (pointer: string): unknown => {
    let node: unknown = root;
    for (const part of pointer.slice(2).split('/')) {
      const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
      node = (node as Record<string, unknown> | undefined)?.[key];
    }
    if (node === undefined) throw new Error(`the OpenAPI schemas refer to ${pointer}, which is not there`);
    return node;
  };
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (typeof node !== 'object' || node === null) return node;
    const { $ref, ...rest } = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    if (typeof $ref === 'string' && !COMPONENT_REF.test($ref)) Object.assign(out, inline(target($ref)));
    else if ($ref !== undefined) out.$ref = $ref;
    for (const [key, value] of Object.entries(rest)) out[key] = inline(value);
    return out;
  };
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [name, inline(schema) as JsonSchema]),
  );
}

/** The document of `groups`' routes: every schema converted once, paths in OpenAPI form. */
export function buildOpenApiDocument(groups: RouteGroup[], info: DocumentInfo): OpenApiDocument {
  const names = new SchemaNames();
  names.name('ErrorReply', errorReply);
  for (const group of groups) {
    for (const [exportName, value] of Object.entries(group.schemas ?? {})) {
      if (value instanceof z.ZodType) names.name(componentName(exportName), value);
    }
  }

  const ids = new Set<string>();
  const planned: Planned[] = groups.flatMap((group) =>
    group.routes.map((route) => {
      const id = operationId(route);
      if (ids.has(id)) throw new Error(`two routes are described as ${route.method} ${route.path}`);
      ids.add(id);
      const base = pascal([id]);
      const p: Planned = { route, tag: group.tag.name, id, error: 'ErrorReply' };
      if (route.errorReply) p.error = names.name(`${base}Error`, route.errorReply);
      if (route.body) {
        const { schema, optional } = unwrapOptional(route.body);
        p.body = { name: names.name(`${base}Body`, schema), optional };
      }
      if (route.query) p.query = names.name(`${base}Query`, route.query);
      if (route.reply instanceof z.ZodType) p.reply = names.name(`${base}Reply`, route.reply);
      return p;
    }),
  );

  // One conversion: refs between schemas (and to a part of one used again) point into components.
  const converted = zodToJsonSchema(z.null(), {
    target: 'jsonSchema7',
    basePath: ['#', 'components'],
    definitionPath: 'schemas',
    definitions: Object.fromEntries(names.byName),
    $refStrategy: 'root',
    effectStrategy: 'input',
    pipeStrategy: 'input',
  }) as { schemas?: Record<string, JsonSchema> };
  const schemas = inlineInnerRefs(converted.schemas ?? {});

  const paths: OpenApiDocument['paths'] = {};
  for (const p of planned) {
    const item = paths[openApiPath(p.route.path)] ?? {};
    item[p.route.method] = operation(p, schemas);
    paths[openApiPath(p.route.path)] = item;
  }
  return {
    openapi: OPENAPI_VERSION,
    info,
    tags: groups.map((g) => g.tag),
    paths,
    components: { schemas, securitySchemes: SECURITY_SCHEMES },
  };
}

// What the /docs/api viewer shows of the control plane's OpenAPI document (GET /api/openapi.json):
// its operations by tag, a search over them, the fields of a schema as rows, who may call an
// operation and a curl command for it. Pure functions: the components only render them.
import type { JsonSchema, OpenApiDocument, OpenApiOperation } from '@gpucloud/control-plane/api';

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete', 'options', 'head', 'trace'] as const;

export interface DocOperation {
  /** `GET /api/containers/{id}`: unique in a document. */
  key: string;
  method: string;
  path: string;
  op: OpenApiOperation;
}

export interface TagGroup {
  name: string;
  description: string;
  operations: DocOperation[];
}

export function listOperations(doc: OpenApiDocument): DocOperation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHOD_ORDER.flatMap((method) => {
      const op = item[method];
      return op ? [{ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, op }] : [];
    }),
  );
}

/** Whether every word of `query` is in the operation's method, path, summary, id or tag. */
export function matchesQuery(o: DocOperation, query: string): boolean {
  const text =
    `${o.method} ${o.path} ${o.op.summary} ${o.op.operationId} ${o.op.tags.join(' ')}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word));
}

/** The operations that match `query`, by tag in the document's order; tags with none are left out. */
export function groupOperations(doc: OpenApiDocument, query: string): TagGroup[] {
  const operations = listOperations(doc).filter((o) => matchesQuery(o, query));
  return doc.tags
    .map((tag) => ({
      name: tag.name,
      description: tag.description ?? tag.name,
      operations: operations.filter((o) => o.op.tags[0] === tag.name),
    }))
    .filter((group) => group.operations.length > 0);
}

// ------------------------------------------------------------------ schemas

/** The schema a `$ref` points to (a JSON pointer into the document), with the ref's own keywords. */
export function resolveSchema(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 32; hops++) {
    const { $ref, ...rest } = current;
    let node: unknown = doc;
    for (const part of $ref.replace(/^#\//, '').split('/')) {
      const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
      node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
    }
    if (typeof node !== 'object' || node === null) return rest;
    current = { ...(node as JsonSchema), ...rest };
  }
  return current;
}

/** `type: ['string', 'null']` or `anyOf: [X, {type: 'null'}]`: X, and that null is allowed. */
function withoutNull(doc: OpenApiDocument, schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const s = resolveSchema(doc, schema);
  if (Array.isArray(s.type) && s.type.includes('null')) {
    const rest = s.type.filter((t) => t !== 'null');
    return { schema: { ...s, type: rest.length === 1 ? rest[0] : rest }, nullable: true };
  }
  const options = s.anyOf ?? s.oneOf;
  if (options) {
    const others = options.filter((o) => resolveSchema(doc, o).type !== 'null');
    if (others.length === 1 && others.length < options.length) {
      return { schema: resolveSchema(doc, others[0] as JsonSchema), nullable: true };
    }
  }
  return { schema: s, nullable: false };
}

/** `string`, `integer | null`, `array<object>`, `map<string, number>`, `string | array<string>`. */
export function typeLabel(doc: OpenApiDocument, schema: JsonSchema): string {
  const { schema: s, nullable } = withoutNull(doc, schema);
  let label: string;
  const options = s.anyOf ?? s.oneOf;
  if (options) label = options.map((o) => typeLabel(doc, o)).join(' | ');
  else if (Array.isArray(s.type)) label = s.type.join(' | ');
  else if (s.type === 'array') label = `array<${s.items ? typeLabel(doc, s.items) : 'any'}>`;
  else if (s.type === 'object' && !s.properties && typeof s.additionalProperties === 'object') {
    label = `map<string, ${typeLabel(doc, s.additionalProperties)}>`;
  } else label = s.type ?? (s.const !== undefined ? typeof s.const : 'any');
  return nullable ? `${label} | null` : label;
}

const shown = (value: unknown) => (typeof value === 'string' && value !== '' ? value : JSON.stringify(value));

/** The rules of a field, in words: allowed values, default, bounds, length, pattern. */
export function fieldNotes(doc: OpenApiDocument, schema: JsonSchema): string[] {
  const s = withoutNull(doc, schema).schema;
  const notes: string[] = [];
  if (s.description) notes.push(s.description);
  if (s.enum) notes.push(`可选值：${s.enum.map(shown).join('、')}`);
  if (s.const !== undefined) notes.push(`固定为 ${shown(s.const)}`);
  if (s.default !== undefined) notes.push(`默认 ${shown(s.default)}`);
  const low = s.minimum ?? s.exclusiveMinimum;
  const high = s.maximum ?? s.exclusiveMaximum;
  if (low !== undefined) notes.push(`${s.exclusiveMinimum !== undefined ? '大于' : '最小'} ${low}`);
  if (high !== undefined && high < Number.MAX_SAFE_INTEGER) {
    notes.push(`${s.exclusiveMaximum !== undefined ? '小于' : '最大'} ${high}`);
  }
  if (s.minLength !== undefined && s.minLength > 0) notes.push(`至少 ${s.minLength} 个字符`);
  if (s.maxLength !== undefined) notes.push(`最多 ${s.maxLength} 个字符`);
  if (s.maxItems !== undefined) notes.push(`最多 ${s.maxItems} 项`);
  if (s.pattern) notes.push(`格式 /${s.pattern}/`);
  if (s.format) notes.push(`格式 ${s.format}`);
  return notes;
}

export interface FieldRow {
  id: string;
  /** 0 for the top level; a nested object's fields are one deeper. */
  depth: number;
  name: string;
  type: string;
  required: boolean;
  notes: string[];
}

/** The object whose fields a schema has: itself, an array's item, or a nullable one's. */
function fieldsOf(doc: OpenApiDocument, schema: JsonSchema): JsonSchema | undefined {
  const { schema: s } = withoutNull(doc, schema);
  if (s.properties) return s;
  if (s.type === 'array' && s.items) return fieldsOf(doc, s.items);
  if (typeof s.additionalProperties === 'object') return fieldsOf(doc, s.additionalProperties);
  return undefined;
}

/** The fields of a schema as rows, nested objects' fields after theirs (at most `maxDepth` deep). */
export function fieldRows(doc: OpenApiDocument, schema: JsonSchema, maxDepth = 6): FieldRow[] {
  const rows: FieldRow[] = [];
  const walk = (object: JsonSchema, depth: number, prefix: string) => {
    const required = new Set(object.required ?? []);
    for (const [name, field] of Object.entries(object.properties ?? {})) {
      const id = `${prefix}${name}`;
      rows.push({
        id,
        depth,
        name,
        type: typeLabel(doc, field),
        required: required.has(name),
        notes: fieldNotes(doc, field),
      });
      const inner = fieldsOf(doc, field);
      if (inner && depth + 1 < maxDepth) walk(inner, depth + 1, `${id}.`);
    }
  };
  const top = fieldsOf(doc, schema);
  if (top) walk(top, 0, '');
  return rows;
}

// ------------------------------------------------------------------ who may call, and how

const SCHEME_LABELS: Record<string, string> = {
  bearerAuth: '会话令牌',
  apiKey: 'API 密钥',
  sessionQuery: '会话令牌（?token=）',
  registryBasic: '镜像仓库凭据',
};

/** 公开, or the credentials an operation takes (会话令牌 / API 密钥 / …). */
export function authLabels(op: OpenApiOperation): string[] {
  const schemes = op.security.flatMap((requirement) => Object.keys(requirement));
  if (schemes.length === 0) return ['公开'];
  const labels = schemes.map((s) => SCHEME_LABELS[s] ?? s);
  return op.security.some((r) => Object.keys(r).length === 0) ? ['公开', ...labels] : labels;
}

export const acceptsApiKey = (op: OpenApiOperation) => op.security.some((r) => 'apiKey' in r);

/** A value a schema accepts, for the curl example: its default, first allowed value, or a plain one. */
export function exampleValue(doc: OpenApiDocument, schema: JsonSchema, depth = 0): unknown {
  const { schema: s } = withoutNull(doc, schema);
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum && s.enum.length > 0) return s.enum[0];
  const options = s.anyOf ?? s.oneOf;
  if (options?.[0]) return exampleValue(doc, options[0], depth);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'integer' || type === 'number') {
    if (s.minimum !== undefined) return s.minimum;
    return s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1;
  }
  if (type === 'boolean') return false;
  if (type === 'string') return s.format === 'date-time' ? '2026-01-01T00:00:00Z' : 'string';
  if (type === 'array')
    return s.items && depth < 4 && (s.minItems ?? 0) > 0 ? [exampleValue(doc, s.items, depth + 1)] : [];
  if (type === 'object' || s.properties) {
    const required = new Set(s.required ?? []);
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(s.properties ?? {})) {
      if (required.has(name) && depth < 4) out[name] = exampleValue(doc, field, depth + 1);
    }
    return out;
  }
  return null;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A curl command for an operation: an API key where the operation takes one (X-API-Key), else
 * the session token; example path and required query parameters, and a body with the required
 * fields. None for a WebSocket.
 */
export function curlExample(doc: OpenApiDocument, o: DocOperation, origin: string): string | null {
  if (o.op['x-websocket']) return null;
  let path = o.path;
  const query = new URLSearchParams();
  for (const p of o.op.parameters ?? []) {
    const value = String(exampleValue(doc, p.schema));
    const shownValue = p.schema.pattern?.startsWith('^c-') ? 'c-abc123' : value;
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(shownValue));
    else if (p.in === 'query' && p.required) query.set(p.name, value);
  }
  const search = query.toString();
  const lines = [
    `curl${o.method === 'GET' ? '' : ` -X ${o.method}`} ${quote(`${origin}${path}${search ? `?${search}` : ''}`)}`,
  ];
  const schemes = new Set(o.op.security.flatMap((r) => Object.keys(r)));
  if (schemes.has('apiKey')) lines.push(`-H ${quote('X-API-Key: gpuc_…')}`);
  else if (schemes.has('bearerAuth')) lines.push(`-H ${quote('Authorization: Bearer <会话令牌>')}`);
  else if (schemes.has('registryBasic')) lines.push(`-u ${quote('<用户名>:<授权>')}`);
  const body = o.op.requestBody?.content['application/json']?.schema;
  if (body) {
    lines.push(`-H ${quote('Content-Type: application/json')}`);
    lines.push(`-d ${quote(JSON.stringify(exampleValue(doc, body)))}`);
  }
  return lines.join(' \\\n  ');
}

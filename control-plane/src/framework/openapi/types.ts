// The OpenAPI 3.1 document the control plane serves at GET /api/openapi.json, as types: what
// document.ts builds and what the console's /docs/api viewer reads (exported through src/api.ts).
// Only the parts the generator writes are typed. No values here: the console imports this file.

/** A JSON Schema (2020-12, OpenAPI 3.1's dialect), as zod-to-json-schema writes them. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

export interface OpenApiMediaType {
  schema?: JsonSchema;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiResponse {
  description: string;
  content?: Record<string, OpenApiMediaType>;
}

/** `[]` for a scheme means "no scopes"; an empty object in the list means "no credentials needed". */
export type OpenApiSecurityRequirement = Record<string, string[]>;

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: OpenApiSecurityRequirement[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; description?: string; content: Record<string, OpenApiMediaType> };
  responses: Record<string, OpenApiResponse>;
  /** Only administrators are allowed (the server checks the admin flag). */
  'x-admin'?: boolean;
  /** A WebSocket: the GET is an upgrade (101 Switching Protocols), then frames as described. */
  'x-websocket'?: boolean;
}

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'options' | 'head' | 'trace';

export type OpenApiPathItem = Partial<Record<HttpMethod, OpenApiOperation>>;

export interface OpenApiSecurityScheme {
  type: 'http' | 'apiKey';
  scheme?: string;
  bearerFormat?: string;
  name?: string;
  in?: 'header' | 'query';
  description?: string;
}

export interface OpenApiDocument {
  openapi: string;
  jsonSchemaDialect?: string;
  info: { title: string; version: string; description?: string };
  tags: { name: string; description?: string }[];
  paths: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, OpenApiSecurityScheme>;
  };
}

// The TanStack Query keys of the console: one factory per feature, in one place, so a feature
// that refreshes another's data (a purchase refreshes 我的容器 and the market) imports nothing
// of that feature. A key's first element names the feature; invalidating `x.all` refreshes all
// of its queries.

type Id = string | number;

export const adminUserKeys = {
  all: ['admin', 'users'] as const,
  list: (query: object) => ['admin', 'users', 'list', query] as const,
  detail: (id: number) => ['admin', 'users', 'detail', id] as const,
};

/** The API's own OpenAPI document (/docs/api). */
export const apiDocsKeys = {
  all: ['api-docs'] as const,
  document: () => ['api-docs', 'document'] as const,
};

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: () => ['api-keys', 'list'] as const,
};

export const appKeys = {
  all: ['apps'] as const,
  images: (category: string, search: string) => ['apps', 'images', category, search] as const,
};

export const billingKeys = {
  all: ['billing'] as const,
  balance: () => ['billing', 'balance'] as const,
  statistics: () => ['billing', 'statistics'] as const,
  records: (query: object) => ['billing', 'records', query] as const,
  payment: (outTradeNo: string) => ['billing', 'payment', outTradeNo] as const,
  sandbox: (outTradeNo: string) => ['billing', 'sandbox', outTradeNo] as const,
};

export const catalogueKeys = {
  all: ['admin', 'catalogue'] as const,
  frameworks: () => ['admin', 'catalogue', 'frameworks'] as const,
  images: () => ['admin', 'catalogue', 'images'] as const,
  products: () => ['admin', 'catalogue', 'products'] as const,
};

export const containerKeys = {
  all: ['containers'] as const,
  list: () => ['containers', 'list'] as const,
  detail: (id: string) => ['containers', id] as const,
  metrics: (id: string, range: string) => ['containers', id, 'metrics', range] as const,
  admin: (query: object) => ['containers', 'admin', query] as const,
};

export const imageKeys = {
  all: ['images'] as const,
  list: () => ['images', 'list'] as const,
  detail: (id: number) => ['images', 'detail', id] as const,
  compare: (a: number, b: number) => ['images', 'compare', a, b] as const,
  admin: () => ['images', 'admin'] as const,
};

export const marketKeys = {
  all: ['market'] as const,
  products: (filters: object) => ['market', 'products', filters] as const,
  regions: () => ['market', 'regions'] as const,
  gpuTypes: () => ['market', 'gpu-types'] as const,
  frameworks: () => ['market', 'frameworks'] as const,
  frameworkVersions: (frameworkId: Id) => ['market', 'framework-versions', String(frameworkId)] as const,
  occupiedPorts: (productId: Id) => ['market', 'occupied-ports', String(productId)] as const,
};

export const mcpKeys = {
  all: ['mcp'] as const,
  containers: (status: string) => ['mcp', 'containers', status] as const,
  servers: () => ['mcp', 'servers'] as const,
  logs: (id: string) => ['mcp', 'logs', id] as const,
};

export const nodeKeys = {
  all: ['admin', 'nodes'] as const,
  list: () => ['admin', 'nodes', 'list'] as const,
  detail: (id: Id) => ['admin', 'nodes', 'detail', String(id)] as const,
  images: (id: Id) => ['admin', 'nodes', 'images', String(id)] as const,
  metrics: (id: Id, minutes: number) => ['admin', 'nodes', 'metrics', String(id), minutes] as const,
};

export const profileKeys = {
  all: ['profile'] as const,
  info: () => ['profile', 'info'] as const,
};

export const siteKeys = {
  all: ['site'] as const,
  info: () => ['site', 'info'] as const,
};

export const storageKeys = {
  all: ['storage'] as const,
  info: () => ['storage', 'info'] as const,
  nodes: () => ['storage', 'nodes'] as const,
  volumes: (nodeId?: number) => ['storage', 'volumes', nodeId ?? 'all'] as const,
};

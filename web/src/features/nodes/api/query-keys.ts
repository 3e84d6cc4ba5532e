export const nodeKeys = {
  all: ['admin', 'nodes'] as const,
  list: () => ['admin', 'nodes', 'list'] as const,
  detail: (id: number | string) => ['admin', 'nodes', 'detail', String(id)] as const,
  images: (id: number | string) => ['admin', 'nodes', 'images', String(id)] as const,
  metrics: (id: number | string, minutes: number) =>
    ['admin', 'nodes', 'metrics', String(id), minutes] as const,
};

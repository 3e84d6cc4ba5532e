import type { AdminContainerQuery } from './admin-containers';

export const containerKeys = {
  all: ['containers'] as const,
  list: () => ['containers', 'list'] as const,
  detail: (id: string) => ['containers', id] as const,
  metrics: (id: string, minutes: number) => ['containers', id, 'metrics', minutes] as const,
  admin: (query: AdminContainerQuery) => ['containers', 'admin', query] as const,
};

export const storageKeys = {
  all: ['storage'] as const,
  info: () => ['storage', 'info'] as const,
  nodes: () => ['storage', 'nodes'] as const,
  volumes: (nodeId?: number) => ['storage', 'volumes', nodeId ?? 'all'] as const,
};

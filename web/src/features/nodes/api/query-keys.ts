export const nodeKeys = {
  all: ['admin', 'nodes'] as const,
  list: () => ['admin', 'nodes', 'list'] as const,
};

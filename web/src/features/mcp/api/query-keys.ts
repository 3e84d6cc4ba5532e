export const mcpKeys = {
  all: ['mcp'] as const,
  containers: (status: string) => ['mcp', 'containers', status] as const,
  servers: () => ['mcp', 'servers'] as const,
  logs: (id: string) => ['mcp', 'logs', id] as const,
};

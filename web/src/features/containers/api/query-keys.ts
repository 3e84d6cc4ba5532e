export const containerKeys = {
  all: ['containers'] as const,
  list: () => ['containers', 'list'] as const,
  detail: (id: string) => ['containers', id] as const,
};

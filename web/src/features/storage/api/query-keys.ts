export const storageKeys = {
  all: ['storage'] as const,
  volumes: () => ['storage', 'volumes'] as const,
};

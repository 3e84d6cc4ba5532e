export const profileKeys = {
  all: ['profile'] as const,
  info: () => ['profile', 'info'] as const,
};

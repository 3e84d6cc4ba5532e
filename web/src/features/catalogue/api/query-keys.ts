export const catalogueKeys = {
  all: ['admin', 'catalogue'] as const,
  frameworks: () => ['admin', 'catalogue', 'frameworks'] as const,
  images: () => ['admin', 'catalogue', 'images'] as const,
  products: () => ['admin', 'catalogue', 'products'] as const,
};

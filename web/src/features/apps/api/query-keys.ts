import type { AppCategory } from '../types';

export const appKeys = {
  all: ['apps'] as const,
  images: (category: AppCategory, search: string) => ['apps', 'images', category, search] as const,
};

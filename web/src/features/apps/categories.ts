import type { AppCategory } from './types';

/** The category sidebar of the app market, in the spec's order. */
export const APP_CATEGORIES: readonly { value: AppCategory; label: string }[] = [
  { value: 'all', label: '全部' },
  { value: 'pytorch', label: 'PyTorch' },
  { value: 'tensorflow', label: 'TensorFlow' },
  { value: 'nlp', label: '自然语言处理' },
  { value: 'cv', label: '计算机视觉' },
  { value: 'ml', label: '机器学习' },
];

export function isAppCategory(value: unknown): value is AppCategory {
  return APP_CATEGORIES.some((category) => category.value === value);
}

export function categoryLabel(value: string | null | undefined): string {
  return APP_CATEGORIES.find((category) => category.value === value)?.label ?? '全部';
}

/** Query of GET /api/images: 'all' and an empty search are left out (they filter nothing). */
export function imageQueryParams(category: AppCategory, search: string) {
  return {
    category: category === 'all' ? undefined : category,
    search: search.trim() || undefined,
  };
}

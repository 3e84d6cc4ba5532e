import type { UserListQuery } from '../types';

export const adminUserKeys = {
  all: ['admin', 'users'] as const,
  list: (query: UserListQuery) => ['admin', 'users', 'list', query] as const,
  detail: (id: number) => ['admin', 'users', 'detail', id] as const,
};

/** List endpoints answer `{ items, total }`; a few spec calls answer a bare array. Accept both. */
export interface ListResponse<T> {
  items: T[];
  total: number;
}

export function toList<T>(data: ListResponse<T> | T[] | null | undefined): ListResponse<T> {
  if (!data) return { items: [], total: 0 };
  if (Array.isArray(data)) return { items: data, total: data.length };
  const items = Array.isArray(data.items) ? data.items : [];
  return { items, total: typeof data.total === 'number' ? data.total : items.length };
}

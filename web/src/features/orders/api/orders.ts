import type { Order, OrderList, TransactionList } from '@gpucloud/control-plane/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';

export const orderKeys = {
  all: ['orders'] as const,
  list: (skip: number, limit: number) => ['orders', 'list', skip, limit] as const,
  detail: (id: number) => ['orders', 'detail', id] as const,
  invoiceable: () => ['orders', 'invoiceable'] as const,
  transactions: (page: number, size: number, type: string) =>
    ['orders', 'transactions', page, size, type] as const,
};

export function useContainerOrders(skip: number, limit: number) {
  return useQuery({
    queryKey: orderKeys.list(skip, limit),
    queryFn: async ({ signal }) =>
      toList(
        await api.get<OrderList>('/api/orders/container-orders', {
          signal,
          params: { skip, limit },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useOrder(id: number | null) {
  return useQuery({
    queryKey: orderKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<Order>(`/api/orders/${id}`, { signal }),
    enabled: id !== null,
  });
}

/** Orders that can still be invoiced (paid, not invoiced in full). */
export function useInvoiceableOrders(enabled: boolean) {
  return useQuery({
    queryKey: orderKeys.invoiceable(),
    queryFn: async ({ signal }) =>
      toList(
        await api.get<OrderList>('/api/orders', {
          signal,
          params: { status: 'invoiceable', limit: 100 },
        }),
      ),
    enabled,
  });
}

export function useTransactions(page: number, size: number, type: 'all' | 'income' | 'expense') {
  return useQuery({
    queryKey: orderKeys.transactions(page, size, type),
    queryFn: async ({ signal }) =>
      toList(
        await api.get<TransactionList>('/api/transactions', {
          signal,
          params: { page, page_size: size, type },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

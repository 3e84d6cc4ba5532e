import type { Invoice, InvoiceApplication, InvoiceList, InvoiceStatus } from '@gpucloud/control-plane/api';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';

export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (scope: 'mine' | 'admin', page: number, size: number, status: string) =>
    ['invoices', scope, page, size, status] as const,
};

export function useInvoices(
  scope: 'mine' | 'admin',
  page: number,
  size: number,
  status: InvoiceStatus | 'all',
) {
  return useQuery({
    queryKey: invoiceKeys.list(scope, page, size, status),
    queryFn: async ({ signal }) =>
      toList(
        await api.get<InvoiceList>(scope === 'admin' ? '/api/admin/invoices' : '/api/invoices', {
          signal,
          params:
            scope === 'admin'
              ? { page, size, status: status === 'all' ? undefined : status }
              : { page, page_size: size, status: status === 'all' ? undefined : status },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

function useInvoiceCommand<T>(command: (input: T) => Promise<Invoice>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: command,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['orders'] }),
      ]),
  });
}

export const useApplyInvoice = () =>
  useInvoiceCommand((body: InvoiceApplication) => api.post<Invoice>('/api/invoices', body));
export const useCancelInvoice = () =>
  useInvoiceCommand((id: number) => api.put<Invoice>(`/api/invoices/${id}`, { status: 'cancelled' }));
export const useIssueInvoice = () =>
  useInvoiceCommand((id: number) => api.post<Invoice>(`/api/admin/invoices/${id}/issue`));

/** Downloads the issued invoice document (an authenticated request, saved as a file). */
export async function downloadInvoice(invoice: Invoice, scope: 'mine' | 'admin'): Promise<void> {
  const path =
    scope === 'admin' ? `/api/admin/invoices/${invoice.id}/download` : `/api/invoices/${invoice.id}/download`;
  // Through the one client: the token, the timeout, a 401's logout, and the server's reason
  // (发票不存在, 发票尚未开具…) as the error.
  const file = await api.get<Blob>(path, { as: 'blob', headers: { Accept: 'text/html' } });
  const url = URL.createObjectURL(file);
  const a = document.createElement('a');
  a.href = url;
  a.download = `invoice-${invoice.invoice_no}.html`;
  a.click();
  URL.revokeObjectURL(url);
}

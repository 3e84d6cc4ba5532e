import type { PaginationState } from '@tanstack/react-table';
import { Alert, App, Button, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header';
import { withDetail } from '../../../lib/api-client';
import { useCancelInvoice, useInvoices } from '../api/invoices';
import type { Invoice, InvoiceStatus } from '../types';
import { ApplyInvoiceDialog } from './apply-invoice-dialog';
import { DownloadInvoiceButton, InvoiceStatusSelect, InvoiceTable } from './invoice-table';

/** /invoices: the user's invoices by status, apply, cancel a pending one, download an issued one. */
export function InvoicesPage() {
  const { message } = App.useApp();
  const [status, setStatus] = useState<InvoiceStatus | 'all'>('all');
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 10 });
  const [applying, setApplying] = useState(false);
  const invoices = useInvoices('mine', pagination.pageIndex + 1, pagination.pageSize, status);
  const cancel = useCancelInvoice();

  const actions = (invoice: Invoice) => (
    <Space size={0}>
      {invoice.status === 'pending' ? (
        <Popconfirm
          title="取消发票申请"
          description="确定要取消这张发票的申请吗？"
          okText="确定"
          cancelText="取消"
          onConfirm={() =>
            cancel.mutateAsync(invoice.id).then(
              () => message.success('发票已取消'),
              (error: unknown) => message.error(withDetail('取消发票失败', error)),
            )
          }
        >
          <Button type="link" size="small">
            取消
          </Button>
        </Popconfirm>
      ) : null}
      {invoice.status === 'issued' ? <DownloadInvoiceButton invoice={invoice} scope="mine" /> : null}
    </Space>
  );

  return (
    <div>
      <PageHeader
        title="发票管理"
        extra={
          <Space wrap>
            <InvoiceStatusSelect
              value={status}
              onChange={(value) => {
                setStatus(value);
                setPagination((p) => ({ ...p, pageIndex: 0 }));
              }}
            />
            <Button type="primary" onClick={() => setApplying(true)}>
              申请发票
            </Button>
          </Space>
        }
      />
      {invoices.isError ? (
        <Alert type="error" showIcon message="获取发票列表失败" style={{ marginBottom: 16 }} />
      ) : null}
      <InvoiceTable
        invoices={invoices.data?.items ?? []}
        total={invoices.data?.total ?? 0}
        loading={invoices.isPending}
        pagination={pagination}
        onPaginationChange={setPagination}
        actions={actions}
      />
      <ApplyInvoiceDialog open={applying} onClose={() => setApplying(false)} />
    </div>
  );
}

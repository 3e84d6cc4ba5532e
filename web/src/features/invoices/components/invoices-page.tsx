import type { PaginationState } from '@tanstack/react-table';
import { Alert, App, Button, Popconfirm, Select, Space } from 'antd';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header';
import { errorDetail, withDetail } from '../../../lib/api-client';
import { downloadInvoice, useCancelInvoice, useInvoices } from '../api/invoices';
import type { Invoice, InvoiceStatus } from '../types';
import { ApplyInvoiceDialog } from './apply-invoice-dialog';
import { InvoiceTable } from './invoice-table';

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
      {invoice.status === 'issued' ? (
        <Button
          type="link"
          size="small"
          onClick={() =>
            downloadInvoice(invoice, 'mine').catch((e: unknown) => message.error(errorDetail(e)))
          }
        >
          下载
        </Button>
      ) : null}
    </Space>
  );

  return (
    <div>
      <PageHeader
        title="发票管理"
        extra={
          <Space wrap>
            <Select
              value={status}
              style={{ width: 120 }}
              aria-label="发票状态"
              onChange={(value) => {
                setStatus(value);
                setPagination((p) => ({ ...p, pageIndex: 0 }));
              }}
              options={[
                { value: 'all', label: '全部' },
                { value: 'pending', label: '待开具' },
                { value: 'issued', label: '已开具' },
                { value: 'cancelled', label: '已取消' },
              ]}
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

import type { PaginationState } from '@tanstack/react-table';
import { Alert, App, Button, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header';
import { withDetail } from '../../../lib/api-client';
import { useInvoices, useIssueInvoice } from '../../invoices/api/invoices';
import {
  DownloadInvoiceButton,
  InvoiceStatusSelect,
  InvoiceTable,
} from '../../invoices/components/invoice-table';
import type { Invoice, InvoiceStatus } from '../../invoices/types';

/** /admin/invoices: applications to issue (开具), issued documents to download. */
export function AdminInvoicesPage() {
  const { message } = App.useApp();
  const [status, setStatus] = useState<InvoiceStatus | 'all'>('pending');
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 20 });
  const invoices = useInvoices('admin', pagination.pageIndex + 1, pagination.pageSize, status);
  const issue = useIssueInvoice();
  const actions = (invoice: Invoice) =>
    invoice.status === 'pending' ? (
      <Popconfirm
        title="开具发票"
        description={`确定为「${invoice.title}」开具 ¥${invoice.amount.toFixed(2)} 的发票吗？`}
        okText="确定"
        cancelText="取消"
        onConfirm={() =>
          issue.mutateAsync(invoice.id).then(
            () => message.success('发票已开具'),
            (error: unknown) => message.error(withDetail('开具发票失败', error)),
          )
        }
      >
        <Button type="link" size="small">
          开具
        </Button>
      </Popconfirm>
    ) : invoice.status === 'issued' ? (
      <DownloadInvoiceButton invoice={invoice} scope="admin" />
    ) : null;
  return (
    <div>
      <PageHeader
        title="发票管理"
        extra={
          <Space>
            <InvoiceStatusSelect
              value={status}
              onChange={(v) => {
                setStatus(v);
                setPagination((p) => ({ ...p, pageIndex: 0 }));
              }}
            />
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
        showUser
      />
    </div>
  );
}

import type { Invoice, InvoiceStatus } from '@gpucloud/control-plane/api';
import { App, Button, Popconfirm } from 'antd';
import { useState } from 'react';
import { ListPage, type ListQuery } from '../../../components/list-page';
import { withDetail } from '../../../lib/api-client';
import { useInvoices, useIssueInvoice } from '../../invoices/api/invoices';
import {
  DownloadInvoiceButton,
  INVOICE_LIST,
  InvoiceStatusSelect,
  invoiceColumns,
} from '../../invoices/components/invoice-table';

type StatusFilter = InvoiceStatus | 'all';

function useAllInvoices({ page, size }: ListQuery, status: StatusFilter) {
  return useInvoices('admin', page, size, status);
}

/** /admin/invoices: applications to issue (开具), issued documents to download. */
export function AdminInvoicesPage() {
  const { message } = App.useApp();
  const [status, setStatus] = useState<StatusFilter>('pending');
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
    <ListPage
      {...INVOICE_LIST}
      useList={useAllInvoices}
      columns={invoiceColumns(actions, true)}
      filters={<InvoiceStatusSelect value={status} onChange={setStatus} />}
      filter={status}
    />
  );
}

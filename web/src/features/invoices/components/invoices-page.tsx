import type { Invoice, InvoiceStatus } from '@gpucloud/control-plane/api';
import { App, Button, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { ListPage, type ListQuery } from '../../../components/list-page';
import { withDetail } from '../../../lib/api-client';
import { useCancelInvoice, useInvoices } from '../api/invoices';
import { ApplyInvoiceDialog } from './apply-invoice-dialog';
import { DownloadInvoiceButton, INVOICE_LIST, InvoiceStatusSelect, invoiceColumns } from './invoice-table';

type StatusFilter = InvoiceStatus | 'all';

function useMyInvoices({ page, size }: ListQuery, status: StatusFilter) {
  return useInvoices('mine', page, size, status);
}

/** /invoices: the user's invoices by status, apply, cancel a pending one, download an issued one. */
export function InvoicesPage() {
  const { message } = App.useApp();
  const [status, setStatus] = useState<StatusFilter>('all');
  const [applying, setApplying] = useState(false);
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
    <ListPage
      {...INVOICE_LIST}
      useList={useMyInvoices}
      columns={invoiceColumns(actions)}
      defaultPageSize={10}
      filters={<InvoiceStatusSelect value={status} onChange={setStatus} />}
      filter={status}
      actions={
        <Button type="primary" onClick={() => setApplying(true)}>
          申请发票
        </Button>
      }
    >
      <ApplyInvoiceDialog open={applying} onClose={() => setApplying(false)} />
    </ListPage>
  );
}

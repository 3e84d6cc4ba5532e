import type { BillingRecord } from '@gpucloud/control-plane/api';
import { createColumnHelper } from '@tanstack/react-table';
import { Button, DatePicker, Select, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { ListPage, type ListQuery } from '../../../components/list-page';
import { formatDateTime } from '../../../lib/format';
import { useBillingRecords } from '../api/get-billing-records';
import {
  formatHours,
  PAYMENT_METHOD_LABELS,
  RECORD_PAGE_SIZES,
  RECORD_STATUS,
  RECORD_TYPE_LABELS,
  signedYuan,
} from '../money';
import type { RecordQuery } from '../types';
import { PayNowDialog, type PayTarget } from './pay-now-dialog';

const column = createColumnHelper<BillingRecord>();

function payTarget(r: BillingRecord): PayTarget {
  if (r.source === 'order' && r.order_id !== null) {
    return { orderId: r.order_id, amount: r.amount, description: r.description };
  }
  return {
    amount: r.amount,
    description: r.description,
    payment:
      r.out_trade_no && r.code_url
        ? {
            out_trade_no: r.out_trade_no,
            code_url: r.code_url,
            amount: r.amount,
            provider: r.code_url.startsWith('weixin:') ? 'wechat' : 'sandbox',
          }
        : undefined,
  };
}

/** The type and date range the records are filtered by. */
type RecordFilter = Omit<RecordQuery, 'page' | 'size'>;

function useRecordList({ page, size }: ListQuery, filter: RecordFilter) {
  return useBillingRecords({ page, size, ...filter });
}

/** /user/billing-records: date range, type filter, pages of 10/20/50/100, pay-now on pending records. */
export function BillingRecordsPage() {
  const [type, setType] = useState<RecordQuery['type']>('all');
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [paying, setPaying] = useState<PayTarget | null>(null);
  const filter: RecordFilter = {
    type,
    startDate: range?.[0]?.startOf('day').toISOString(),
    endDate: range?.[1]?.endOf('day').toISOString(),
  };

  const columns = (rows: BillingRecord[]) => [
    column.accessor('create_time', { header: '时间', cell: (i) => formatDateTime(i.getValue()) }),
    column.accessor('type', {
      header: '类型',
      cell: (i) => RECORD_TYPE_LABELS[i.getValue()] ?? i.getValue(),
    }),
    column.accessor('description', { header: '描述' }),
    column.accessor('duration', { header: '时长', cell: (i) => formatHours(i.getValue()) }),
    column.accessor('amount', {
      header: '金额',
      meta: { align: 'right' },
      cell: ({ row }) => {
        const text = signedYuan(row.original.amount, row.original.type);
        return <Typography.Text type={text.startsWith('-') ? 'danger' : 'success'}>{text}</Typography.Text>;
      },
    }),
    column.accessor('payment_method', {
      header: '支付方式',
      cell: (i) => PAYMENT_METHOD_LABELS[i.getValue()] ?? i.getValue(),
    }),
    column.accessor('status', {
      header: '状态',
      cell: (i) => {
        const s = RECORD_STATUS[i.getValue()];
        return <Tag color={s?.color}>{s?.label ?? i.getValue()}</Tag>;
      },
    }),
    // The 操作 column only while some record of the page waits for payment.
    ...(rows.some((r) => r.status === 'pending')
      ? [
          column.display({
            id: 'actions',
            header: '操作',
            meta: { sticky: 'right' as const },
            cell: ({ row }) =>
              row.original.status === 'pending' ? (
                <Button type="link" size="small" onClick={() => setPaying(payTarget(row.original))}>
                  立即支付
                </Button>
              ) : null,
          }),
        ]
      : []),
  ];

  return (
    <ListPage
      title="账单记录"
      useList={useRecordList}
      columns={columns}
      rowId={(row) => row.id}
      rowTestId={(row) => `record-row-${row.id}`}
      aria-label="账单记录"
      emptyText="暂无账单记录"
      errorTitle="获取记录失败"
      defaultPageSize={10}
      pageSizeOptions={RECORD_PAGE_SIZES}
      filters={
        <>
          <DatePicker.RangePicker value={range} onChange={setRange} aria-label="日期范围" />
          <Select
            value={type}
            style={{ width: 120 }}
            aria-label="类型"
            onChange={setType}
            options={[
              { value: 'all', label: '全部' },
              { value: 'expense', label: '消费' },
              { value: 'recharge', label: '充值' },
            ]}
          />
        </>
      }
      filter={filter}
      refresh
    >
      <PayNowDialog target={paying} onClose={() => setPaying(null)} />
    </ListPage>
  );
}

import { ReloadOutlined } from '@ant-design/icons';
import { createColumnHelper, type PaginationState } from '@tanstack/react-table';
import { Alert, Button, Input, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { DataTable, usePagedTable } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { errorDetail } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { type OutboxList, type OutboxMessage, useOutbox } from '../api/get-outbox';

const column = createColumnHelper<OutboxMessage>();
const columns = [
  column.accessor('created_at', {
    header: '时间',
    cell: (info) => formatDateTime(info.getValue()),
    meta: { width: 170 },
  }),
  column.accessor('channel', {
    header: '渠道',
    cell: (info) =>
      info.getValue() === 'email' ? <Tag color="blue">邮件</Tag> : <Tag color="green">短信</Tag>,
  }),
  column.accessor('to', { header: '收件人' }),
  column.accessor('subject', { header: '主题', cell: (info) => info.getValue() || '-' }),
  column.accessor('code', {
    header: '验证码',
    cell: (info) => {
      const code = info.getValue();
      return code ? (
        <Typography.Text className="mono" copyable>
          {code}
        </Typography.Text>
      ) : (
        '-'
      );
    },
  }),
  column.accessor('body', {
    header: '内容',
    cell: (info) => (
      <Typography.Paragraph
        style={{ margin: 0, whiteSpace: 'pre-wrap', maxWidth: 420 }}
        ellipsis={{ rows: 2, expandable: true }}
      >
        {info.getValue()}
      </Typography.Paragraph>
    ),
  }),
];

function providerNote(providers: OutboxList['providers'] | undefined): string {
  if (!providers) return '';
  const parts = [
    providers.email === 'sandbox' ? '邮件：沙箱（未配置 SMTP）' : '邮件：SMTP 实际发送，不在此记录',
    providers.sms === 'sandbox' ? '短信：沙箱（未配置短信服务）' : '短信：阿里云实际发送，不在此记录',
  ];
  return parts.join('；');
}

/** /admin/outbox: what the sandbox e-mail and SMS providers "sent" (codes included). */
export function OutboxPage() {
  const [to, setTo] = useState('');
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 20 });
  const outbox = useOutbox({ page: pagination.pageIndex + 1, size: pagination.pageSize, to });
  const table = usePagedTable({
    rows: outbox.data?.items,
    total: outbox.data?.total,
    columns,
    pagination,
    onPaginationChange: setPagination,
    rowId: (row) => row.id,
  });
  return (
    <div>
      <PageHeader
        title="发信记录"
        extra={
          <Space wrap>
            <Input.Search
              allowClear
              aria-label="按收件人筛选"
              placeholder="邮箱或手机号"
              style={{ width: 240 }}
              onSearch={(value) => {
                setTo(value.trim());
                setPagination((p) => ({ ...p, pageIndex: 0 }));
              }}
            />
            <Button
              icon={<ReloadOutlined />}
              onClick={() => void outbox.refetch()}
              loading={outbox.isFetching}
            >
              刷新
            </Button>
          </Space>
        }
      />
      {outbox.data ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={providerNote(outbox.data.providers)}
        />
      ) : null}
      {outbox.isError ? (
        <Alert
          type="error"
          showIcon
          message="获取发信记录失败"
          description={errorDetail(outbox.error)}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <DataTable
        table={table}
        loading={outbox.isPending}
        pagination
        pageSizeOptions={[10, 20, 50, 100]}
        aria-label="发信记录"
        emptyText="暂无消息"
        rowTestId={(row) => `outbox-row-${row.id}`}
      />
    </div>
  );
}

import type { OutboxList, OutboxMessage } from '@gpucloud/control-plane/api';
import { createColumnHelper } from '@tanstack/react-table';
import { Alert, Tag, Typography } from 'antd';
import { ListPage, type ListQuery } from '../../../components/list-page';
import { formatDateTime } from '../../../lib/format';
import { useOutbox } from '../api/get-outbox';

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

function useOutboxList({ page, size, search }: ListQuery) {
  return useOutbox({ page, size, to: search });
}

/** /admin/outbox: what the sandbox e-mail and SMS providers "sent" (codes included). */
export function OutboxPage() {
  return (
    <ListPage
      title="发信记录"
      useList={useOutboxList}
      columns={columns}
      rowId={(row) => row.id}
      rowTestId={(row) => `outbox-row-${row.id}`}
      aria-label="发信记录"
      emptyText="暂无消息"
      errorTitle="获取发信记录失败"
      search={{ placeholder: '邮箱或手机号', 'aria-label': '按收件人筛选', width: 240 }}
      refresh
      notice={(data) => (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} message={providerNote(data.providers)} />
      )}
    />
  );
}

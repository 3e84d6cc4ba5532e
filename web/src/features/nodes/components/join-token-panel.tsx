import { CopyOutlined } from '@ant-design/icons';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { Alert, App, Button, Form, Input, InputNumber, Popconfirm, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { DataTable } from '../../../components/data-table';
import { errorDetail, withDetail } from '../../../lib/api-client';
import { copyText } from '../../../lib/clipboard';
import { formatDateTime } from '../../../lib/format';
import {
  type JoinToken,
  type JoinTokenCreated,
  type NewJoinToken,
  useCreateJoinToken,
  useJoinTokens,
  useRevokeJoinToken,
} from '../api/join-tokens';
import { joinTokenStatusDisplay } from '../node-rules';

interface JoinForm {
  region: string;
  name?: string;
  expires_minutes?: number | null;
}

const column = createColumnHelper<JoinToken>();

function RevokeButton({ token }: { token: JoinToken }) {
  const { message } = App.useApp();
  const revoke = useRevokeJoinToken();
  return (
    <Popconfirm
      title="撤销加入令牌"
      description="撤销后该令牌不能再用于加入节点。"
      okText="确定"
      cancelText="取消"
      onConfirm={() =>
        revoke.mutateAsync(token.id).then(
          () => {
            message.success('加入令牌已撤销');
          },
          (error: unknown) => {
            message.error(withDetail('撤销失败', error));
          },
        )
      }
    >
      <Button type="link" size="small" danger loading={revoke.isPending}>
        撤销
      </Button>
    </Popconfirm>
  );
}

const columns = [
  column.accessor('region', { header: '地区' }),
  column.accessor('name', { header: '节点名称', cell: (info) => info.getValue() || '（主机名）' }),
  column.accessor('status', {
    header: '状态',
    cell: (info) => {
      const display = joinTokenStatusDisplay(info.getValue());
      return <Tag color={display.color}>{display.label}</Tag>;
    },
  }),
  column.accessor('expires_at', { header: '过期时间', cell: (info) => formatDateTime(info.getValue()) }),
  column.display({
    id: 'actions',
    header: '操作',
    cell: ({ row }) => (row.original.status === 'pending' ? <RevokeButton token={row.original} /> : null),
  }),
];

/** 一键加入: a one-time join token and the command that installs and joins the agent with it. */
export function JoinTokenPanel() {
  const { message } = App.useApp();
  const [form] = Form.useForm<JoinForm>();
  const create = useCreateJoinToken();
  const tokens = useJoinTokens(true);
  const [created, setCreated] = useState<JoinTokenCreated | undefined>(undefined);
  const data = useMemo(() => tokens.data?.items ?? [], [tokens.data]);
  const table = useReactTable({
    data,
    columns,
    getRowId: (row) => String(row.id),
    getCoreRowModel: getCoreRowModel(),
  });

  const submit = (values: JoinForm) => {
    const name = values.name?.trim();
    const body: NewJoinToken = {
      region: values.region.trim(),
      ...(name ? { name } : {}),
      ...(values.expires_minutes ? { expires_minutes: values.expires_minutes } : {}),
    };
    create.mutate(body, {
      onSuccess: (reply) => setCreated(reply),
      onError: (error) => {
        message.error(withDetail('生成加入命令失败', error));
      },
    });
  };

  const copy = (command: string) =>
    copyText(command).then(
      () => {
        message.success('命令已复制');
      },
      () => {
        message.error('复制失败，请手动选择命令复制');
      },
    );

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        在 GPU 主机上以 root 运行生成的命令：脚本会检查 Docker、NVIDIA 驱动与容器工具包，安装并启动节点代理，
        节点以双向 TLS 加入后即出现在列表中。令牌仅可使用一次。
      </Typography.Paragraph>
      <Form<JoinForm>
        form={form}
        name="join-token"
        layout="inline"
        initialValues={{ expires_minutes: 60 }}
        onFinish={submit}
      >
        <Form.Item
          label="地区"
          name="region"
          rules={[
            { required: true, whitespace: true, message: '请输入地区' },
            { max: 50, message: '地区不能超过50个字符' },
          ]}
        >
          <Input placeholder="如 华东一区" style={{ width: 140 }} />
        </Form.Item>
        <Form.Item label="节点名称" name="name" rules={[{ max: 64, message: '节点名称不能超过64个字符' }]}>
          <Input placeholder="可选，默认主机名" style={{ width: 150 }} />
        </Form.Item>
        <Form.Item label="有效期（分钟）" name="expires_minutes">
          <InputNumber min={10} max={1440} precision={0} style={{ width: 90 }} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={create.isPending}>
            生成命令
          </Button>
        </Form.Item>
      </Form>
      {created ? (
        <Alert
          type="success"
          showIcon
          message={`加入命令已生成，有效期至 ${formatDateTime(created.expires_at)}，仅可使用一次`}
          description={
            <Space direction="vertical" style={{ width: '100%' }}>
              <Typography.Text
                code
                className="mono"
                data-testid="join-command"
                style={{ wordBreak: 'break-all' }}
              >
                {created.command}
              </Typography.Text>
              <Button icon={<CopyOutlined />} onClick={() => void copy(created.command)}>
                复制命令
              </Button>
            </Space>
          }
        />
      ) : null}
      <Typography.Title level={5} style={{ margin: 0 }}>
        最近的加入令牌
      </Typography.Title>
      {tokens.isError ? (
        <Alert type="error" showIcon message="获取加入令牌失败" description={errorDetail(tokens.error)} />
      ) : null}
      <DataTable
        table={table}
        loading={tokens.isPending}
        aria-label="加入令牌"
        emptyText="暂无加入令牌"
        rowTestId={(row) => `join-token-${row.id}`}
      />
    </Space>
  );
}

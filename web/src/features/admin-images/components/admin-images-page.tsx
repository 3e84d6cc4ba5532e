import { ReloadOutlined } from '@ant-design/icons';
import type { AdminUserImage, ImageQuotaInput } from '@gpucloud/control-plane/api';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { App, AutoComplete, Button, Card, Form, Input, InputNumber, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { DataTable } from '../../../components/data-table';
import { FormDialog } from '../../../components/form-dialog';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { withServerDetail } from '../../../lib/api-client';
import { ruleFrom } from '../../../lib/form-rules';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { ImageStatusTag } from '../../images/components/images-page';
import { imageRef } from '../../images/types';
import { useFrameworks } from '../../market/api/get-frameworks';
import { useAdminUserImages, usePublishImage, useSetImageQuota } from '../api/admin-images';
import {
  checkQuotaCount,
  checkQuotaGb,
  DEFAULT_QUOTA,
  MSG_FRAMEWORK_REQUIRED,
  MSG_VERSION_REQUIRED,
  type PublishFormValues,
  usageByUser,
} from '../types';

const column = createColumnHelper<AdminUserImage>();

function PublishDialog({ image, onClose }: { image: AdminUserImage; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<PublishFormValues>();
  const publish = usePublishImage();
  const frameworks = useFrameworks();

  const save = (values: PublishFormValues) =>
    publish.mutate(
      { id: image.id, body: { framework: values.framework.trim(), version: values.version.trim() } },
      {
        onSuccess: () => {
          message.success('发布成功');
          onClose();
        },
        onError: (err) => message.error(withServerDetail('发布失败', err)),
      },
    );

  return (
    <FormDialog<PublishFormValues>
      title={`发布到公共镜像 - ${imageRef(image)}`}
      okText="发布"
      form={form}
      name="publish-image"
      saving={publish.isPending}
      onClose={onClose}
      onFinish={save}
      initialValues={{ framework: '', version: image.tag }}
    >
      <Typography.Paragraph type="secondary">
        发布后，该镜像将作为框架的一个版本出现在公共镜像中，所有用户都可以用它创建实例。
      </Typography.Paragraph>
      <Form.Item
        label="框架"
        name="framework"
        rules={[{ required: true, whitespace: true, message: MSG_FRAMEWORK_REQUIRED }]}
        extra="选择已有框架，或输入新的框架名称"
      >
        <AutoComplete
          aria-label="框架"
          placeholder="如 PyTorch"
          options={(frameworks.data ?? []).map((f) => ({ value: f.name }))}
          filterOption={(input, option) =>
            String(option?.value ?? '')
              .toLowerCase()
              .includes(input.toLowerCase())
          }
        />
      </Form.Item>
      <Form.Item
        label="版本"
        name="version"
        rules={[{ required: true, whitespace: true, message: MSG_VERSION_REQUIRED }]}
      >
        <Input aria-label="版本" placeholder="如 2.5.1-cuda12.4" maxLength={64} />
      </Form.Item>
    </FormDialog>
  );
}

function QuotaDialog({
  user,
  usage,
  onClose,
}: {
  user: AdminUserImage['user'];
  usage: { count: number; bytes: number } | undefined;
  onClose: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<ImageQuotaInput>();
  const setQuota = useSetImageQuota();

  const save = (values: ImageQuotaInput) =>
    setQuota.mutate(
      { userId: user.id, body: { max_count: values.max_count, max_gb: values.max_gb } },
      {
        onSuccess: () => {
          message.success('配额已更新');
          onClose();
        },
        onError: (err) => message.error(withServerDetail('设置配额失败', err)),
      },
    );

  return (
    <FormDialog<ImageQuotaInput>
      title={`镜像配额 - ${user.username}`}
      okText="保存"
      form={form}
      name="image-quota"
      saving={setQuota.isPending}
      onClose={onClose}
      onFinish={save}
      initialValues={DEFAULT_QUOTA}
    >
      <Typography.Paragraph type="secondary">
        当前已用：{usage?.count ?? 0} 个，{formatBytes(usage?.bytes ?? 0)}。默认配额为{' '}
        {DEFAULT_QUOTA.max_count} 个、
        {DEFAULT_QUOTA.max_gb} GB。
      </Typography.Paragraph>
      <Form.Item label="镜像数量上限" name="max_count" required rules={[ruleFrom(checkQuotaCount)]}>
        <InputNumber aria-label="镜像数量上限" min={0} precision={0} suffix="个" style={{ width: 180 }} />
      </Form.Item>
      <Form.Item label="存储上限" name="max_gb" required rules={[ruleFrom(checkQuotaGb)]}>
        <InputNumber aria-label="存储上限" min={0} suffix="GB" style={{ width: 180 }} />
      </Form.Item>
    </FormDialog>
  );
}

/** 管理后台 → 用户镜像: every user's saved images, publishing one, each user's quota. */
export function AdminImagesPage() {
  const images = useAdminUserImages();
  const [publishing, setPublishing] = useState<AdminUserImage | null>(null);
  const [quotaOf, setQuotaOf] = useState<AdminUserImage['user'] | null>(null);
  const list = useMemo(() => images.data?.items ?? [], [images.data]);
  const usage = useMemo(() => usageByUser(list), [list]);
  const totalBytes = list.reduce((sum, image) => sum + image.size_bytes, 0);

  const columns = useMemo(
    () => [
      column.accessor('user', {
        header: '用户',
        cell: (c) => (
          <Space direction="vertical" size={0}>
            <Typography.Text strong>{c.getValue().username}</Typography.Text>
            <Typography.Text type="secondary">ID {c.getValue().id}</Typography.Text>
          </Space>
        ),
      }),
      column.accessor('name', {
        header: '名称',
        cell: (c) => <Typography.Text strong>{c.getValue()}</Typography.Text>,
      }),
      column.accessor('tag', { header: '标签', cell: (c) => <Tag>{c.getValue()}</Tag> }),
      column.accessor('size_bytes', {
        header: '大小',
        cell: (c) => (c.row.original.status === 'ready' ? formatBytes(c.getValue()) : '-'),
      }),
      column.accessor('created_at', { header: '创建时间', cell: (c) => formatDateTime(c.getValue()) }),
      column.accessor('source_image', {
        header: '基础镜像',
        cell: (c) => (
          <Typography.Text className="mono" ellipsis style={{ maxWidth: 200 }}>
            {c.getValue()}
          </Typography.Text>
        ),
      }),
      column.accessor('status', { header: '状态', cell: (c) => <ImageStatusTag image={c.row.original} /> }),
      column.accessor('published', {
        header: '公共镜像',
        cell: (c) => {
          const published = c.getValue();
          return published ? (
            <Tag color="blue">
              {published.framework} {published.version}
            </Tag>
          ) : (
            <Typography.Text type="secondary">未发布</Typography.Text>
          );
        },
      }),
      column.display({
        id: 'actions',
        header: '操作',
        meta: { sticky: 'right' },
        cell: (c) => (
          <Space size={0}>
            <Button
              type="link"
              size="small"
              disabled={c.row.original.status !== 'ready' || c.row.original.published !== null}
              onClick={() => setPublishing(c.row.original)}
            >
              发布到公共镜像
            </Button>
            <Button type="link" size="small" onClick={() => setQuotaOf(c.row.original.user)}>
              配额
            </Button>
          </Space>
        ),
      }),
    ],
    [],
  );

  const table = useReactTable({
    data: list,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (image) => String(image.id),
  });

  return (
    <div>
      <PageHeader
        title="用户镜像"
        extra={
          <Button icon={<ReloadOutlined />} loading={images.isFetching} onClick={() => void images.refetch()}>
            刷新
          </Button>
        }
      />
      <LoadError title="获取用户镜像失败" error={images.isError ? images.error : null} />
      <Card>
        <Typography.Paragraph type="secondary">
          共 {list.length} 个镜像，{usage.size} 个用户，合计 {formatBytes(totalBytes)}
        </Typography.Paragraph>
        <DataTable
          table={table}
          loading={images.isPending}
          emptyText="暂无用户镜像"
          rowTestId={(image) => `admin-image-${image.id}`}
          aria-label="用户镜像"
        />
      </Card>
      {publishing ? <PublishDialog image={publishing} onClose={() => setPublishing(null)} /> : null}
      {quotaOf ? (
        <QuotaDialog user={quotaOf} usage={usage.get(quotaOf.id)} onClose={() => setQuotaOf(null)} />
      ) : null}
    </div>
  );
}

import { DatabaseOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Volume } from '@gpucloud/control-plane/api';
import { useQueryClient } from '@tanstack/react-query';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { App, Button, Card, Flex, Progress, Space, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { DataTable } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { withServerDetail } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { storageKeys } from '../../../lib/query-keys';
import { measureStorageNow, useStorageInfo } from '../api/get-volumes';
import { useDeleteVolume } from '../api/storage-commands';
import { MSG_DELETE_CONFIRM, MSG_VOLUME_IN_USE, STORAGE_QUOTA_GB } from '../types';
import { CreateVolumeDialog, RenameVolumeDialog } from './volume-dialogs';
import { VolumeStatus } from './volume-status';

const column = createColumnHelper<Volume>();

function UsageCard({ used, quota, loading }: { used: number; quota: number; loading: boolean }) {
  const percent = quota > 0 ? Math.min(100, Math.round((used / quota) * 1000) / 10) : 0;
  return (
    <Card loading={loading} style={{ marginBottom: 16 }}>
      <Flex align="center" gap={16} wrap>
        <DatabaseOutlined style={{ fontSize: 28, color: '#1677ff' }} />
        <div style={{ flex: 1, minWidth: 240 }}>
          <Flex justify="space-between">
            <Typography.Text strong>存储使用量</Typography.Text>
            <Typography.Text data-testid="storage-usage">
              {used.toFixed(2)} GB / {quota} GB
            </Typography.Text>
          </Flex>
          <Progress
            percent={percent}
            status={percent >= 100 ? 'exception' : 'normal'}
            showInfo={false}
            aria-label="存储使用量"
          />
          {percent >= 100 ? (
            <Typography.Text type="danger">
              已达到存储配额，无法再创建或挂载存储卷，请清理数据
            </Typography.Text>
          ) : null}
        </div>
      </Flex>
    </Card>
  );
}

/** /user/storage: usage against the quota, the volumes and who mounts them, create, rename, delete. */
export function StoragePage() {
  const { message, modal } = App.useApp();
  const username = useSession().user?.username ?? '';
  const info = useStorageInfo();
  const remove = useDeleteVolume();
  const queryClient = useQueryClient();
  const [measuring, setMeasuring] = useState(false);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Volume | null>(null);
  const volumes = info.data?.volumes ?? [];

  useEffect(() => {
    if (info.isError) message.error(withServerDetail('获取存储信息失败', info.error));
  }, [info.isError, info.error, message]);

  const columns = useMemo(() => {
    const askDelete = (volume: Volume) => {
      if (volume.containers.length > 0) {
        message.error(MSG_VOLUME_IN_USE);
        return;
      }
      modal.confirm({
        title: '删除存储卷',
        content: MSG_DELETE_CONFIRM,
        okText: '确定',
        cancelText: '取消',
        okButtonProps: { danger: true },
        onOk: () =>
          remove.mutateAsync(volume.id).then(
            () => message.success('已开始删除，完成后存储卷将从列表中移除'),
            (err) => message.error(withServerDetail('删除存储卷失败', err)),
          ),
      });
    };
    return [
      column.accessor('name', {
        header: '名称',
        cell: (c) => <Typography.Text strong>{c.getValue()}</Typography.Text>,
      }),
      column.accessor('path', {
        header: '路径',
        cell: (c) => <Typography.Text className="mono">{c.getValue()}</Typography.Text>,
      }),
      column.accessor('size', { header: '大小', cell: (c) => formatBytes(c.getValue()) }),
      column.accessor('agent', {
        header: '节点',
        cell: (c) => (
          <Tooltip title={c.getValue().server_hostname}>
            {c.getValue().region ? `${c.getValue().region} · ` : ''}
            {c.getValue().name}
          </Tooltip>
        ),
      }),
      column.accessor('containers', {
        header: '使用中的容器',
        cell: (c) =>
          c.getValue().length === 0 ? (
            <Typography.Text type="secondary">未挂载</Typography.Text>
          ) : (
            <Space direction="vertical" size={2}>
              {c.getValue().map((u) => (
                <span key={`${u.container_id}:${u.mount_path}:${u.pending}`}>
                  <Typography.Text className="mono">{u.name || u.container_id}</Typography.Text> →{' '}
                  <Typography.Text className="mono">{u.mount_path}</Typography.Text>
                  {u.pending ? (
                    <Tag color="gold" style={{ marginLeft: 4 }}>
                      重启生效
                    </Tag>
                  ) : null}
                </span>
              ))}
            </Space>
          ),
      }),
      column.accessor('status', { header: '状态', cell: (c) => <VolumeStatus volume={c.row.original} /> }),
      column.accessor('created_at', { header: '创建时间', cell: (c) => formatDateTime(c.getValue()) }),
      column.display({
        id: 'actions',
        header: '操作',
        meta: { sticky: 'right' },
        cell: (c) => {
          // Nothing to rename or delete again while the node deletes it.
          const deleting = c.row.original.status === 'deleting';
          return (
            <Space size={0}>
              <Button
                type="link"
                size="small"
                disabled={deleting}
                onClick={() => setRenaming(c.row.original)}
              >
                重命名
              </Button>
              <Button
                type="link"
                size="small"
                danger
                disabled={deleting}
                onClick={() => askDelete(c.row.original)}
              >
                删除
              </Button>
            </Space>
          );
        },
      }),
    ];
  }, [message, modal, remove]);

  const table = useReactTable({
    data: volumes,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (v) => String(v.id),
  });

  return (
    <div>
      <PageHeader
        title="存储管理"
        extra={
          <Space>
            <Button
              icon={<ReloadOutlined />}
              loading={measuring}
              onClick={() => {
                setMeasuring(true);
                measureStorageNow()
                  .then((fresh) => queryClient.setQueryData(storageKeys.info(), fresh))
                  .catch((err) => message.error(withServerDetail('获取存储信息失败', err)))
                  .finally(() => setMeasuring(false));
              }}
            >
              刷新
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              新建存储卷
            </Button>
          </Space>
        }
      />
      <UsageCard
        used={info.data?.used_storage ?? 0}
        quota={info.data?.quota_storage ?? STORAGE_QUOTA_GB}
        loading={info.isPending}
      />
      <Card title="存储卷">
        <DataTable
          table={table}
          loading={info.isPending}
          emptyText="暂无存储卷"
          rowTestId={(v) => `volume-${v.name}`}
          aria-label="存储卷"
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          存储卷中的数据独立于容器保存：销毁容器后数据仍在，可挂载到同一节点上的新容器。
        </Typography.Paragraph>
      </Card>
      {creating ? <CreateVolumeDialog username={username} onClose={() => setCreating(false)} /> : null}
      {renaming ? (
        <RenameVolumeDialog
          volume={renaming}
          volumes={volumes}
          username={username}
          onClose={() => setRenaming(null)}
        />
      ) : null}
    </div>
  );
}

import { DiffOutlined, ReloadOutlined } from '@ant-design/icons';
import type { ImageQuota, UserImage } from '@gpucloud/control-plane/api';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { App, Button, Card, Checkbox, Col, Progress, Row, Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { DataTable } from '../../../components/data-table';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { withServerDetail } from '../../../lib/api-client';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { useImages } from '../api/get-images';
import { useDeleteImage } from '../api/image-commands';
import { GB, imageRef, statusLabel } from '../types';
import { RenameImageDialog } from './rename-image-dialog';

const column = createColumnHelper<UserImage>();

const percentOf = (used: number, max: number) =>
  max > 0 ? Math.min(100, Math.round((used / max) * 1000) / 10) : 0;

function QuotaCard({ quota, loading }: { quota: ImageQuota | undefined; loading: boolean }) {
  const count = quota?.count ?? 0;
  const maxCount = quota?.max_count ?? 0;
  const bytes = quota?.bytes ?? 0;
  const maxBytes = quota?.max_bytes ?? 0;
  const full = quota !== undefined && (count >= maxCount || bytes >= maxBytes);
  return (
    <Card loading={loading} style={{ marginBottom: 16 }}>
      <Row gutter={[32, 8]}>
        <Col xs={24} md={12}>
          <Typography.Text strong>镜像数量</Typography.Text>
          <Typography.Text style={{ float: 'right' }} data-testid="image-count-quota">
            {count} / {maxCount} 个
          </Typography.Text>
          <Progress
            percent={percentOf(count, maxCount)}
            status={count >= maxCount && quota ? 'exception' : 'normal'}
            showInfo={false}
            aria-label="镜像数量"
          />
        </Col>
        <Col xs={24} md={12}>
          <Typography.Text strong>镜像存储</Typography.Text>
          <Typography.Text style={{ float: 'right' }} data-testid="image-bytes-quota">
            {formatBytes(bytes)} / {Math.round((maxBytes / GB) * 100) / 100} GB
          </Typography.Text>
          <Progress
            percent={percentOf(bytes, maxBytes)}
            status={bytes >= maxBytes && quota ? 'exception' : 'normal'}
            showInfo={false}
            aria-label="镜像存储"
          />
        </Col>
      </Row>
      {full ? (
        <Typography.Text type="danger">已达到镜像配额，无法再保存新镜像，请删除不用的镜像</Typography.Text>
      ) : null}
    </Card>
  );
}

export function ImageStatusTag({ image }: { image: UserImage }) {
  if (image.status === 'ready') return <Tag color="success">可用</Tag>;
  if (image.status === 'saving')
    return (
      <Space direction="vertical" size={0} style={{ minWidth: 120 }}>
        <Tag color="processing">{statusLabel(image)}</Tag>
        <Progress percent={Math.round(image.progress)} size="small" showInfo={false} />
      </Space>
    );
  return (
    <Space direction="vertical" size={0}>
      <Tag color="error">失败</Tag>
      {image.error ? <Typography.Text type="danger">{image.error}</Typography.Text> : null}
    </Space>
  );
}

/** /user/images 我的镜像: quota against use, the images, rename, delete, start one, compare two. */
export function ImagesPage() {
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const images = useImages();
  const remove = useDeleteImage();
  const [renaming, setRenaming] = useState<UserImage | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const list = useMemo(() => images.data?.images ?? [], [images.data]);
  // Only ready images can be compared; one deleted meanwhile drops out of the choice.
  const chosen = useMemo(
    () => selected.filter((id) => list.some((image) => image.id === id && image.status === 'ready')),
    [selected, list],
  );

  const columns = useMemo(() => {
    const askDelete = (image: UserImage) =>
      modal.confirm({
        title: '删除镜像',
        content: `确定要删除镜像 ${imageRef(image)} 吗？删除后无法恢复。`,
        okText: '确定',
        cancelText: '取消',
        okButtonProps: { danger: true },
        onOk: () =>
          remove.mutateAsync(image.id).then(
            () => {
              message.success('删除成功');
              setSelected((ids) => ids.filter((id) => id !== image.id));
            },
            (err: unknown) => message.error(withServerDetail('删除镜像失败', err)),
          ),
      });
    return [
      column.display({
        id: 'select',
        header: '',
        meta: { width: 40 },
        cell: (c) => {
          const image = c.row.original;
          return (
            <SelectBox
              image={image}
              selected={chosen}
              onChange={(checked) =>
                setSelected((ids) => (checked ? [...ids, image.id] : ids.filter((id) => id !== image.id)))
              }
            />
          );
        },
      }),
      column.accessor('name', {
        header: '名称',
        cell: (c) => (
          <Space direction="vertical" size={0}>
            <Link to={`/user/images/${c.row.original.id}`}>
              <Typography.Text strong>{c.getValue()}</Typography.Text>
            </Link>
            {c.row.original.description ? (
              <Typography.Text type="secondary" ellipsis style={{ maxWidth: 220 }}>
                {c.row.original.description}
              </Typography.Text>
            ) : null}
          </Space>
        ),
      }),
      column.accessor('tag', { header: '标签', cell: (c) => <Tag>{c.getValue()}</Tag> }),
      column.accessor('size_bytes', {
        header: '大小',
        cell: (c) => (c.row.original.status === 'ready' ? formatBytes(c.getValue()) : '-'),
      }),
      column.accessor('created_at', { header: '创建时间', cell: (c) => formatDateTime(c.getValue()) }),
      column.accessor('source_container', {
        header: '来源容器',
        cell: (c) => c.getValue()?.name ?? <Typography.Text type="secondary">已释放</Typography.Text>,
      }),
      column.accessor('source_image', {
        header: '基础镜像',
        cell: (c) => (
          <Typography.Text className="mono" ellipsis style={{ maxWidth: 220 }}>
            {c.getValue()}
          </Typography.Text>
        ),
      }),
      column.accessor('status', { header: '状态', cell: (c) => <ImageStatusTag image={c.row.original} /> }),
      column.display({
        id: 'actions',
        header: '操作',
        meta: { sticky: 'right' },
        cell: (c) => {
          const image = c.row.original;
          return (
            <Space size={0}>
              <Button type="link" size="small" onClick={() => navigate(`/user/images/${image.id}`)}>
                详情
              </Button>
              <Button
                type="link"
                size="small"
                disabled={image.status !== 'ready'}
                onClick={() => navigate(`/market?imageType=custom&image=${image.id}`)}
              >
                创建实例
              </Button>
              <Button type="link" size="small" onClick={() => setRenaming(image)}>
                重命名
              </Button>
              <Button
                type="link"
                size="small"
                danger
                disabled={image.status === 'saving'}
                onClick={() => askDelete(image)}
              >
                删除
              </Button>
            </Space>
          );
        },
      }),
    ];
  }, [message, modal, remove, navigate, chosen]);

  const table = useReactTable({
    data: list,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (image) => String(image.id),
  });

  const compare = () => {
    const [a, b] = chosen;
    if (a !== undefined && b !== undefined) navigate(`/user/images/compare?a=${a}&b=${b}`);
  };

  return (
    <div>
      <PageHeader
        title="我的镜像"
        extra={
          <Space>
            <Tooltip title="勾选两个可用的镜像后对比其中的软件包">
              <Button icon={<DiffOutlined />} disabled={chosen.length !== 2} onClick={compare}>
                对比
              </Button>
            </Tooltip>
            <Button
              icon={<ReloadOutlined />}
              loading={images.isFetching}
              onClick={() => void images.refetch()}
            >
              刷新
            </Button>
          </Space>
        }
      />
      <LoadError title="获取镜像列表失败" error={images.isError ? images.error : null} />
      <QuotaCard quota={images.data?.quota} loading={images.isPending} />
      <Card title="镜像列表">
        <DataTable
          table={table}
          loading={images.isPending}
          emptyText="暂无镜像，可在「我的容器」中将容器保存为镜像"
          rowTestId={(image) => `image-row-${image.id}`}
          aria-label="镜像列表"
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          镜像保存容器的系统盘（不含挂载的存储卷），可用于在任意节点创建新实例。
        </Typography.Paragraph>
      </Card>
      {renaming ? <RenameImageDialog image={renaming} onClose={() => setRenaming(null)} /> : null}
    </div>
  );
}

function SelectBox({
  image,
  selected,
  onChange,
}: {
  image: UserImage;
  selected: number[];
  onChange: (checked: boolean) => void;
}) {
  const checked = selected.includes(image.id);
  const disabled = image.status !== 'ready' || (!checked && selected.length >= 2);
  return (
    <Checkbox
      aria-label={`选择 ${imageRef(image)}`}
      checked={checked}
      disabled={disabled}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}

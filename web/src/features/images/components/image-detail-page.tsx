import { ArrowLeftOutlined, DownloadOutlined, RocketOutlined } from '@ant-design/icons';
import type { ImageContents, ImageLayer, PackageVersion, UserImageDetail } from '@gpucloud/control-plane/api';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { Alert, App, Button, Card, Descriptions, Empty, Input, Space, Tabs, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { DataTable } from '../../../components/data-table';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { withServerDetail } from '../../../lib/api-client';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { downloadDockerfile, useImage } from '../api/get-images';
import { filterPackages, imageRef } from '../types';
import { ImageStatusTag } from './images-page';

const layerColumn = createColumnHelper<ImageLayer>();
const layerColumns = [
  layerColumn.accessor('size_bytes', {
    header: '大小',
    meta: { width: 110 },
    cell: (c) => formatBytes(c.getValue()),
  }),
  layerColumn.accessor('added', {
    header: '来源',
    meta: { width: 100 },
    cell: (c) => (c.getValue() ? <Tag color="blue">本次新增</Tag> : <Tag>基础镜像</Tag>),
  }),
  layerColumn.accessor('created_by', {
    header: '创建指令',
    cell: (c) => (
      <Typography.Text className="mono" style={{ wordBreak: 'break-all' }}>
        {c.getValue() || '-'}
      </Typography.Text>
    ),
  }),
];

function Layers({ layers }: { layers: ImageLayer[] }) {
  const table = useReactTable({ data: layers, columns: layerColumns, getCoreRowModel: getCoreRowModel() });
  return <DataTable table={table} emptyText="暂无镜像层信息" aria-label="镜像层" />;
}

const packageColumn = createColumnHelper<PackageVersion>();
const packageColumns = [
  packageColumn.accessor('name', {
    header: '名称',
    cell: (c) => <span className="mono">{c.getValue()}</span>,
  }),
  packageColumn.accessor('version', {
    header: '版本',
    cell: (c) => <span className="mono">{c.getValue()}</span>,
  }),
];

/** One package list, searchable by name or version. */
function PackageList({ list, label }: { list: PackageVersion[] | null; label: string }) {
  const [search, setSearch] = useState('');
  const rows = useMemo(() => filterPackages(list ?? [], search), [list, search]);
  const table = useReactTable({
    data: rows,
    columns: packageColumns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (p) => p.name,
  });
  if (list === null) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`该镜像没有${label}`} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Input.Search
        allowClear
        aria-label={`搜索${label}`}
        placeholder="按名称或版本搜索"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        style={{ maxWidth: 320 }}
      />
      <Typography.Text type="secondary">
        共 {list.length} 个{search.trim() ? `，匹配 ${rows.length} 个` : ''}
      </Typography.Text>
      <DataTable table={table} emptyText="没有匹配的软件包" aria-label={label} />
    </Space>
  );
}

const orNone = (value: string | null | undefined) => value || '无';

function Facts({ image, contents }: { image: UserImageDetail; contents: ImageContents | null }) {
  return (
    <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
      <Descriptions.Item label="名称">{imageRef(image)}</Descriptions.Item>
      <Descriptions.Item label="状态">
        <ImageStatusTag image={image} />
      </Descriptions.Item>
      <Descriptions.Item label="操作系统">{orNone(contents?.os?.pretty_name)}</Descriptions.Item>
      <Descriptions.Item label="Python">{orNone(contents?.python)}</Descriptions.Item>
      <Descriptions.Item label="CUDA">{orNone(contents?.cuda)}</Descriptions.Item>
      <Descriptions.Item label="cuDNN">{orNone(contents?.cudnn)}</Descriptions.Item>
      <Descriptions.Item label="基础镜像">
        <Typography.Text className="mono">{contents?.base.image ?? image.source_image}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="基础镜像摘要">
        <Typography.Text className="mono" copyable={Boolean(contents?.base.digest)}>
          {contents?.base.digest ?? '-'}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="镜像摘要">
        <Typography.Text className="mono" copyable={Boolean(image.digest)}>
          {image.digest ?? '-'}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="大小">
        {image.status === 'ready' ? formatBytes(image.size_bytes) : '-'}
      </Descriptions.Item>
      <Descriptions.Item label="新增大小">
        {contents ? formatBytes(contents.added_bytes) : '-'}
      </Descriptions.Item>
      <Descriptions.Item label="创建时间">{formatDateTime(image.created_at)}</Descriptions.Item>
      <Descriptions.Item label="来源容器">{image.source_container?.name ?? '已释放'}</Descriptions.Item>
      <Descriptions.Item label="使用中的容器">
        {image.in_use.length ? image.in_use.map((c) => c.name).join('，') : '无'}
      </Descriptions.Item>
      <Descriptions.Item label="描述" span="filled">
        {image.description || '-'}
      </Descriptions.Item>
    </Descriptions>
  );
}

/** /user/images/:id: what is inside a saved image, its layers and packages, and its Dockerfile. */
export function ImageDetailPage() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const image = useImage(id);
  const [downloading, setDownloading] = useState(false);
  const data = image.data;
  const contents = data?.contents ?? null;

  const download = () => {
    setDownloading(true);
    downloadDockerfile(id)
      .catch((err: unknown) => message.error(withServerDetail('下载 Dockerfile 失败', err)))
      .finally(() => setDownloading(false));
  };

  return (
    <div>
      <PageHeader
        title={data ? `镜像详情 - ${imageRef(data)}` : '镜像详情'}
        extra={
          <Space>
            <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/user/images')}>
              返回
            </Button>
            <Button
              icon={<DownloadOutlined />}
              disabled={data?.status !== 'ready'}
              loading={downloading}
              onClick={download}
            >
              下载 Dockerfile
            </Button>
            <Button
              type="primary"
              icon={<RocketOutlined />}
              disabled={data?.status !== 'ready'}
              onClick={() => navigate(`/market?imageType=custom&image=${id}`)}
            >
              创建实例
            </Button>
          </Space>
        }
      />
      <LoadError title="获取镜像详情失败" error={image.isError ? image.error : null} />
      {data?.status === 'failed' && data.error ? (
        <Alert
          type="error"
          showIcon
          message="镜像保存失败"
          description={data.error}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <Card loading={image.isPending} style={{ marginBottom: 16 }}>
        {data ? <Facts image={data} contents={contents} /> : null}
      </Card>
      {contents ? (
        <>
          <Card title="镜像层" style={{ marginBottom: 16 }}>
            <Layers layers={contents.layers} />
          </Card>
          <Card title="软件包">
            <Tabs
              items={[
                {
                  key: 'pip',
                  label: `pip（${contents.pip?.length ?? 0}）`,
                  children: <PackageList list={contents.pip} label="pip 软件包" />,
                },
                {
                  key: 'conda',
                  label: `conda（${contents.conda?.length ?? 0}）`,
                  children: <PackageList list={contents.conda} label="conda 软件包" />,
                },
                {
                  key: 'apt-added',
                  label: `新增系统软件包（${contents.apt_added?.length ?? 0}）`,
                  children: <PackageList list={contents.apt_added} label="新增系统软件包" />,
                },
                {
                  key: 'apt',
                  label: `全部系统软件包（${contents.apt?.length ?? 0}）`,
                  children: <PackageList list={contents.apt} label="系统软件包" />,
                },
              ]}
            />
          </Card>
        </>
      ) : data && data.status === 'ready' ? (
        <Alert type="info" showIcon message="该镜像没有记录内容清单" />
      ) : null}
    </div>
  );
}

import { ArrowLeftOutlined } from '@ant-design/icons';
import type { ImageCompare, PackageDiff } from '@gpucloud/control-plane/api';
import { Alert, Button, Card, Descriptions, Empty, Space, Tag, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { useImageCompare } from '../api/get-images';
import { diffSize, imageRef } from '../types';

const FACT_LABELS: Record<string, string> = {
  os: '操作系统',
  python: 'Python',
  cuda: 'CUDA',
  cudnn: 'cuDNN',
  base: '基础镜像',
};

const LIST_STYLE = { listStyle: 'none', padding: 0, margin: '4px 0 0' } as const;

const LISTS: { key: 'pip' | 'conda' | 'apt'; label: string }[] = [
  { key: 'pip', label: 'pip 软件包' },
  { key: 'conda', label: 'conda 软件包' },
  { key: 'apt', label: '系统软件包' },
];

function DiffSection({ diff, label }: { diff: PackageDiff | null; label: string }) {
  if (diff === null)
    return (
      <Card title={label} size="small" style={{ marginBottom: 16 }} data-testid={`diff-${label}`}>
        <Typography.Text type="secondary">其中一个镜像没有{label}，无法对比</Typography.Text>
      </Card>
    );
  return (
    <Card
      title={`${label}（${diffSize(diff)} 处不同）`}
      size="small"
      style={{ marginBottom: 16 }}
      data-testid={`diff-${label}`}
    >
      {diffSize(diff) === 0 ? (
        <Typography.Text type="secondary">两个镜像的{label}相同</Typography.Text>
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          {diff.added.length ? (
            <div>
              <Typography.Text strong>新增（{diff.added.length}）</Typography.Text>
              <ul style={LIST_STYLE}>
                {diff.added.map((p) => (
                  <li key={p.name}>
                    <Tag color="success">+</Tag>
                    <span className="mono">
                      {p.name} {p.version}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {diff.removed.length ? (
            <div>
              <Typography.Text strong>移除（{diff.removed.length}）</Typography.Text>
              <ul style={LIST_STYLE}>
                {diff.removed.map((p) => (
                  <li key={p.name}>
                    <Tag color="error">-</Tag>
                    <span className="mono">
                      {p.name} {p.version}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {diff.changed.length ? (
            <div>
              <Typography.Text strong>版本变更（{diff.changed.length}）</Typography.Text>
              <ul style={LIST_STYLE}>
                {diff.changed.map((p) => (
                  <li key={p.name}>
                    <Tag color="warning">~</Tag>
                    <span className="mono">
                      {p.name} {p.from} → {p.to}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </Space>
      )}
    </Card>
  );
}

function Comparison({ data }: { data: ImageCompare }) {
  return (
    <>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={`以 ${imageRef(data.a)} 为基准，列出 ${imageRef(data.b)} 新增、移除和变更的内容`}
      />
      <Card title="基本信息" size="small" style={{ marginBottom: 16 }}>
        {data.facts.length === 0 ? (
          <Typography.Text type="secondary">操作系统、Python、CUDA、cuDNN 与基础镜像均相同</Typography.Text>
        ) : (
          <Descriptions bordered size="small" column={1}>
            {data.facts.map((fact) => (
              <Descriptions.Item key={fact.what} label={FACT_LABELS[fact.what] ?? fact.what}>
                <span className="mono">
                  {fact.a ?? '无'} → {fact.b ?? '无'}
                </span>
              </Descriptions.Item>
            ))}
          </Descriptions>
        )}
      </Card>
      {LISTS.map((list) => (
        <DiffSection key={list.key} diff={data[list.key]} label={list.label} />
      ))}
    </>
  );
}

/** /user/images/compare?a=&b=: what b added, removed and changed against a. */
export function ImageComparePage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const a = Number(search.get('a'));
  const b = Number(search.get('b'));
  const valid = Number.isInteger(a) && a > 0 && Number.isInteger(b) && b > 0;
  const compare = useImageCompare(a, b);

  return (
    <div>
      <PageHeader
        title="镜像对比"
        extra={
          <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/user/images')}>
            返回
          </Button>
        }
      />
      {!valid ? (
        <Empty description="请在「我的镜像」中勾选两个镜像进行对比" />
      ) : (
        <>
          <LoadError title="镜像对比失败" error={compare.isError ? compare.error : null} />
          {compare.isPending ? <Card loading /> : null}
          {compare.data ? <Comparison data={compare.data} /> : null}
        </>
      )}
    </div>
  );
}

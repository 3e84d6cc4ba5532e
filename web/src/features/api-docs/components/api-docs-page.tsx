import { DownloadOutlined } from '@ant-design/icons';
import type { OpenApiDocument } from '@gpucloud/control-plane/api';
import { Button, Collapse, Empty, Flex, Input, Skeleton, Space, Tag, Typography } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { LinkButton } from '../../../components/link-button';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { OPENAPI_URL, useOpenApiDocument } from '../api/get-openapi-document';
import { authLabels, type DocOperation, groupOperations, listOperations } from '../model';
import { OperationPanel } from './operation-panel';
import './api-docs.css';

const METHOD_COLORS: Record<string, string> = {
  GET: 'blue',
  POST: 'green',
  PUT: 'orange',
  PATCH: 'cyan',
  DELETE: 'red',
};

function OperationLabel({ operation }: { operation: DocOperation }) {
  const { op } = operation;
  return (
    <Flex gap={8} align="center" wrap data-testid={`api-op-${op.operationId}`}>
      <Tag color={METHOD_COLORS[operation.method] ?? 'default'} className="api-docs-method">
        {op['x-websocket'] ? 'WS' : operation.method}
      </Tag>
      <code className="api-docs-path">{operation.path}</code>
      <span>{op.summary}</span>
      <span className="api-docs-auth">
        {authLabels(op).map((label) => (
          <Tag key={label} color={label === 'API 密钥' ? 'green' : label === '公开' ? 'default' : 'blue'}>
            {label}
          </Tag>
        ))}
        {op['x-admin'] ? <Tag color="purple">仅管理员</Tag> : null}
      </span>
    </Flex>
  );
}

function Operations({ doc, query }: { doc: OpenApiDocument; query: string }) {
  const groups = useMemo(() => groupOperations(doc, query), [doc, query]);
  if (groups.length === 0) return <Empty description="没有匹配的接口" />;
  return (
    <Flex vertical gap={24}>
      {groups.map((group) => (
        <section key={group.name} aria-label={group.description} data-testid={`api-tag-${group.name}`}>
          <Typography.Title level={4}>
            {group.description}{' '}
            <Typography.Text type="secondary" style={{ fontSize: 14, fontWeight: 'normal' }}>
              {group.name} · {group.operations.length} 个接口
            </Typography.Text>
          </Typography.Title>
          <Collapse
            items={group.operations.map((operation) => ({
              key: operation.key,
              label: <OperationLabel operation={operation} />,
              children: <OperationPanel doc={doc} operation={operation} />,
            }))}
          />
        </section>
      ))}
    </Flex>
  );
}

/**
 * /docs/api: the control plane's HTTP API, read from its own OpenAPI document (public, offline:
 * nothing but the document is fetched).
 */
export function ApiDocsPage() {
  const doc = useOpenApiDocument();
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search);
  const total = useMemo(() => (doc.data ? listOperations(doc.data).length : 0), [doc.data]);
  return (
    <div className="api-docs">
      <PageHeader
        title="API 文档"
        extra={
          <Space wrap>
            <Button icon={<DownloadOutlined />} href={OPENAPI_URL} target="_blank">
              OpenAPI 3.1（JSON）
            </Button>
            <LinkButton to="/user/profile">API 密钥</LinkButton>
          </Space>
        }
      />
      <Typography.Paragraph type="secondary">
        以下接口由控制面的 OpenAPI 文档（{OPENAPI_URL}）生成{doc.data ? `，共 ${total} 个` : ''}。
        在浏览器中登录后使用会话令牌（Authorization: Bearer）；在脚本中可使用 API 密钥：请求头 X-API-Key
        携带在 <Link to="/user/profile">个人中心 → API 密钥</Link> 创建的密钥，适用于标有“API
        密钥”的接口（容器、算力市场、镜像、框架、余额与 MCP）。错误答复均为{' '}
        <Typography.Text code>{'{"detail": "中文消息", "code": "机器码"}'}</Typography.Text>。
      </Typography.Paragraph>
      <Input.Search
        allowClear
        placeholder="搜索路径、说明、操作 ID 或分组"
        aria-label="搜索接口"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ maxWidth: 480, marginBottom: 16 }}
      />
      <LoadError title="获取 API 文档失败" error={doc.isError ? doc.error : null} />
      {doc.isPending ? <Skeleton active /> : null}
      {doc.data ? <Operations doc={doc.data} query={query} /> : null}
    </div>
  );
}

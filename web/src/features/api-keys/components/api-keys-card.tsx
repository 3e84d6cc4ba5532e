import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useApiKeys } from '../api/get-api-keys';
import { MAX_API_KEYS } from '../types';
import { ApiKeyTable } from './api-key-table';
import { CreateApiKeyDialog } from './create-api-key-dialog';

/** The profile's API keys: at most 5, for the X-API-Key header of the public API and MCP. */
export function ApiKeysCard() {
  const keys = useApiKeys();
  const [creating, setCreating] = useState(false);
  const total = keys.data?.total ?? 0;
  const full = total >= MAX_API_KEYS;
  return (
    <Card
      title="API 密钥"
      extra={
        <Tooltip title={full ? '最多可创建5个 API 密钥' : undefined}>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={full || keys.isPending}
            onClick={() => setCreating(true)}
          >
            创建密钥
          </Button>
        </Tooltip>
      }
    >
      <Typography.Paragraph type="secondary">
        在请求头 X-API-Key 中携带密钥即可调用容器、算力市场、镜像、余额与 MCP 接口（MCP 服务地址
        /api/mcp/server），哪些接口接受密钥见 <Link to="/docs/api">API 文档</Link>。已创建 {total}/
        {MAX_API_KEYS} 个。<Link to="/user/mcp">前往 MCP 控制台</Link>
      </Typography.Paragraph>
      {keys.isError ? (
        <Alert type="error" showIcon message="获取 API 密钥失败" style={{ marginBottom: 16 }} />
      ) : null}
      <ApiKeyTable keys={keys.data?.items ?? []} loading={keys.isPending} />
      <CreateApiKeyDialog open={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}

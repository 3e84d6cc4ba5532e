import type { OpenApiDocument, OpenApiResponse } from '@gpucloud/control-plane/api';
import { Alert, Flex, Tag, Typography } from 'antd';
import { acceptsApiKey, curlExample, type DocOperation, fieldNotes, typeLabel } from '../model';
import { SchemaFields } from './schema-fields';

const JSON_TYPE = 'application/json';
const ERROR_REPLY = '#/components/schemas/ErrorReply';
const PLACES: Record<string, string> = { path: '路径', query: '查询', header: '请求头' };

function Response({
  doc,
  status,
  response,
}: {
  doc: OpenApiDocument;
  status: string;
  response: OpenApiResponse;
}) {
  const failed = Number(status) >= 400;
  const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
  const schema = media?.schema;
  return (
    <div className="api-docs-response" data-status={status}>
      <Flex gap={8} align="center" wrap>
        <Tag color={failed ? 'error' : 'success'}>{status}</Tag>
        <span>{response.description}</span>
        {type && type !== JSON_TYPE ? <Typography.Text code>{type}</Typography.Text> : null}
        {schema?.$ref === ERROR_REPLY ? (
          <Typography.Text type="secondary">{'{detail, code}'}</Typography.Text>
        ) : null}
      </Flex>
      {schema && type === JSON_TYPE && schema.$ref !== ERROR_REPLY ? (
        <SchemaFields doc={doc} schema={schema} requiredLabel="总是返回" />
      ) : null}
    </div>
  );
}

/** One operation: how to call it (parameters, body, credentials, curl) and what it answers. */
export function OperationPanel({ doc, operation }: { doc: OpenApiDocument; operation: DocOperation }) {
  const { op } = operation;
  const params = op.parameters ?? [];
  const body = op.requestBody?.content[JSON_TYPE]?.schema;
  const curl = curlExample(doc, operation, window.location.origin);
  return (
    <Flex vertical gap={16}>
      {op.description ? (
        <Typography.Paragraph className="api-docs-description">{op.description}</Typography.Paragraph>
      ) : null}
      <Typography.Text type="secondary">
        操作 ID <Typography.Text code>{op.operationId}</Typography.Text>
      </Typography.Text>
      {params.length > 0 ? (
        <section>
          <Typography.Title level={5}>参数</Typography.Title>
          <div className="api-docs-table-wrap">
            <table className="api-docs-fields">
              <thead>
                <tr>
                  <th>名称</th>
                  <th>位置</th>
                  <th>类型</th>
                  <th>必填</th>
                  <th>说明</th>
                </tr>
              </thead>
              <tbody>
                {params.map((p) => (
                  <tr key={`${p.in} ${p.name}`} data-param={p.name}>
                    <td>
                      <code>{p.name}</code>
                    </td>
                    <td>{PLACES[p.in] ?? p.in}</td>
                    <td>
                      <code>{typeLabel(doc, p.schema)}</code>
                    </td>
                    <td>{p.required ? '是' : '否'}</td>
                    <td>{[p.description, ...fieldNotes(doc, p.schema)].filter(Boolean).join('；')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
      {body ? (
        <section>
          <Typography.Title level={5}>
            请求体{' '}
            {op.requestBody?.required ? null : <Typography.Text type="secondary">（可省略）</Typography.Text>}
          </Typography.Title>
          <SchemaFields doc={doc} schema={body} requiredLabel="必填" />
        </section>
      ) : null}
      <section>
        <Typography.Title level={5}>答复</Typography.Title>
        <Flex vertical gap={8}>
          {Object.entries(op.responses).map(([status, response]) => (
            <Response key={status} doc={doc} status={status} response={response} />
          ))}
        </Flex>
      </section>
      {curl ? (
        <section>
          <Typography.Title level={5}>curl 示例</Typography.Title>
          <Typography.Paragraph
            copyable={{ text: curl, tooltips: ['复制', '已复制'] }}
            className="api-docs-curl"
          >
            <pre className="api-docs-code" data-testid="api-docs-curl">
              {curl}
            </pre>
          </Typography.Paragraph>
        </section>
      ) : (
        <Alert
          type="info"
          showIcon
          message="WebSocket 接口"
          description={`用 WebSocket 客户端连接 wss://<平台域名> 加上述路径，以 ?token=<会话令牌> 认证${
            acceptsApiKey(op) ? '；脚本也可以在 X-API-Key 请求头中携带 API 密钥' : ''
          }。`}
        />
      )}
    </Flex>
  );
}

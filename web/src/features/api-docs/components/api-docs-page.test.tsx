import type { OpenApiDocument } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, renderRoutes } from '../../../test/render';
// Made by the control plane's own generator from a few of its routes (control-plane/test/openapi.test.ts
// checks it is what the generator makes today).
import sample from '../testing/sample-openapi.json';

const document = sample as unknown as OpenApiDocument;

function serveDocument() {
  return fakeServer({ 'GET /api/openapi.json': () => ({ body: document }) });
}

async function openOperation(operationId: string): Promise<HTMLElement> {
  const header = await screen.findByTestId(`api-op-${operationId}`);
  fireEvent.click(header);
  const item = header.closest('.ant-collapse-item');
  if (!(item instanceof HTMLElement)) throw new Error(`no panel for ${operationId}`);
  await waitFor(() => expect(item.querySelector('.ant-collapse-content')).toBeTruthy());
  return item;
}

describe('API 文档 (/docs/api)', { timeout: 60_000 }, () => {
  it('lists the operations by tag, with who may call them, without signing in', async () => {
    const { requests } = serveDocument();
    renderRoutes(routes, '/docs/api');
    const containers = await screen.findByTestId('api-tag-containers');
    expect(within(containers).getByText('容器')).toBeTruthy();
    expect(within(containers).getByText(/2 个接口/)).toBeTruthy();

    const balance = screen.getByTestId('api-op-getBillingBalance');
    expect(within(balance).getByText('GET')).toBeTruthy();
    expect(within(balance).getByText('/api/billing/balance')).toBeTruthy();
    expect(within(balance).getByText('账户余额与告警阈值（元）')).toBeTruthy();
    expect(within(balance).getByText('会话令牌')).toBeTruthy();
    expect(within(balance).getByText('API 密钥')).toBeTruthy();

    const adminList = screen.getByTestId('api-op-getAdminUsers');
    expect(within(adminList).getByText('仅管理员')).toBeTruthy();
    expect(within(adminList).queryByText('API 密钥')).toBeNull();
    expect(within(screen.getByTestId('api-op-postAuthLogin')).getByText('公开')).toBeTruthy();
    expect(within(screen.getByTestId('api-op-getContainersWsByIdLogs')).getByText('WS')).toBeTruthy();
    expect(screen.getByText(/共 7 个/)).toBeTruthy();
    expect(requests.map((r) => r.path)).toEqual(['/api/openapi.json']);
  });

  it('asks for the document without the session token', async () => {
    setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
    const { requests } = serveDocument();
    renderRoutes(routes, '/docs/api');
    await screen.findByTestId('api-op-getBillingBalance');
    expect(requests[0]?.headers.Authorization).toBeUndefined();
  });

  it('searches by path, summary and operation id', async () => {
    serveDocument();
    renderRoutes(routes, '/docs/api');
    await screen.findByTestId('api-op-getBillingBalance');
    const search = screen.getByLabelText('搜索接口');
    fireEvent.change(search, { target: { value: 'purchase' } });
    await waitFor(() => expect(screen.queryByTestId('api-op-getBillingBalance')).toBeNull());
    expect(screen.getByTestId('api-op-postCloudProductsByIdPurchase')).toBeTruthy();
    expect(screen.queryByTestId('api-tag-auth')).toBeNull();

    fireEvent.change(search, { target: { value: '登录' } });
    await waitFor(() => expect(screen.getByTestId('api-op-postAuthLogin')).toBeTruthy());
    expect(screen.queryByTestId('api-op-postCloudProductsByIdPurchase')).toBeNull();

    fireEvent.change(search, { target: { value: 'no-such-route' } });
    expect(await screen.findByText('没有匹配的接口')).toBeTruthy();
  });

  it('shows parameters, the request body and the reply as field tables, and a curl with X-API-Key', async () => {
    serveDocument();
    renderRoutes(routes, '/docs/api');
    const panel = await openOperation('postCloudProductsByIdPurchase');

    const id = panel.querySelector('[data-param="id"]');
    expect(id?.textContent).toContain('路径');
    expect(id?.textContent).toContain('integer');
    expect(panel.querySelector('[data-param="Idempotency-Key"]')?.textContent).toContain('请求头');

    const gpuCount = panel.querySelector('[data-field="gpuCount"]');
    expect(gpuCount?.textContent).toContain('是');
    expect(gpuCount?.textContent).toContain('最小 1；最大 8');
    expect(panel.querySelector('[data-field="billing_type"]')?.textContent).toContain(
      '可选值：hourly、daily、weekly、monthly、yearly',
    );
    // Nested: a mount's fields under the mounts array.
    expect(panel.querySelector('[data-field="mounts"]')?.textContent).toContain('array<object>');
    expect(panel.querySelector('[data-field="mounts.source"]')?.textContent).toContain('最多 128 个字符');
    // The reply (201) and the refusals it documents.
    expect(panel.querySelector('[data-status="201"] [data-field="container_id"]')).toBeTruthy();
    expect(panel.querySelector('[data-status="402"]')?.textContent).toContain('余额不足');

    const curl = within(panel).getByTestId('api-docs-curl').textContent ?? '';
    expect(curl).toContain("curl -X POST 'http://localhost:3000/api/cloud-products/1/purchase'");
    expect(curl).toContain("-H 'X-API-Key: gpuc_…'");
    expect(curl).toContain('"gpuCount":1');
    expect(curl).toContain('"agreeTerms":true');
    expect(curl).toContain('"billing_type":"hourly"');
  });

  it('an operation without API keys gets the session token in its curl, a WebSocket none', async () => {
    serveDocument();
    renderRoutes(routes, '/docs/api');
    const admin = await openOperation('getAdminUsers');
    expect(within(admin).getByTestId('api-docs-curl').textContent).toContain(
      "-H 'Authorization: Bearer <会话令牌>'",
    );
    const logs = await openOperation('getContainersWsByIdLogs');
    expect(within(logs).queryByTestId('api-docs-curl')).toBeNull();
    expect(within(logs).getByText('WebSocket 接口')).toBeTruthy();
    expect(logs.querySelector('[data-status="101"]')).toBeTruthy();
  });

  it('says so when the document cannot be loaded', async () => {
    fakeServer({
      'GET /api/openapi.json': () => ({ status: 503, body: { detail: '服务维护中', code: 'X' } }),
    });
    renderRoutes(routes, '/docs/api');
    expect(await screen.findByText('获取 API 文档失败')).toBeTruthy();
  });
});

import type { McpContainer } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import {
  dialog,
  fakeServer,
  findButtons,
  getButton,
  renderRoutes,
  waitForButton,
} from '../../../test/render';
import type { McpServerOption } from '../types';

const running: McpContainer = {
  container_id: 'c-run',
  name: 'agent-box',
  image_name: 'Ubuntu 22.04 + CUDA 12.4 Jupyter',
  gpu_count: 2,
  image: 'ubuntu-cuda-jupyter:22.04',
  status: 'running',
  platform_status: 'running',
  created_at: '2026-03-01T08:00:00Z',
  started_at: null,
  stopped_at: null,
  region: '',
  node_name: '',
  gpu_type: '',
  ssh_server: 'gpu1.example.com',
  ssh_port: 10001,
  ports: [],
  price: 0,
  total_cost: 0,
  no_gpu: false,
  start_error: null,
  pull_progress: null,
};
const stopped: McpContainer = { ...running, container_id: 'c-stop', name: 'idle-box', status: 'stopped' };
const server: McpServerOption = {
  id: 7,
  name: '华东-4090',
  status: 'available',
  gpu_type: 'RTX 4090',
  gpu_available: 6,
  gpu_total: 8,
  price: 1.99,
};

const list =
  (items: McpContainer[] = [running, stopped]) =>
  () => ({ body: { items, total: items.length } });

beforeEach(() => {
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});

describe('MCP dashboard', { timeout: 60_000 }, () => {
  it('lists containers with the session token; start is disabled while running, stop unless running', async () => {
    const { requests } = fakeServer({ 'GET /api/mcp/containers': list() });
    renderRoutes(routes, '/user/mcp');
    const row = await screen.findByTestId('mcp-row-c-run');
    expect(within(row).getByText('运行中')).toBeTruthy();
    expect(within(row).getByText('Ubuntu 22.04 + CUDA 12.4 Jupyter')).toBeTruthy();
    expect(within(row).getByText('ssh -p 10001 root@gpu1.example.com')).toBeTruthy();
    expect(getButton(row, '启动').disabled).toBe(true);
    expect(getButton(row, '停止').disabled).toBe(false);
    const idle = screen.getByTestId('mcp-row-c-stop');
    expect(getButton(idle, '启动').disabled).toBe(false);
    expect(getButton(idle, '停止').disabled).toBe(true);
    expect(getButton(idle, '重置密码').disabled).toBe(true);
    const call = requests.find((r) => r.path === '/api/mcp/containers');
    expect(call?.headers.Authorization).toBe('Bearer tok');
  });

  it('filters by status through the API', async () => {
    const { requests } = fakeServer({
      'GET /api/mcp/containers': (r) =>
        list(r.search.get('status') === 'stopped' ? [stopped] : [running, stopped])(),
    });
    renderRoutes(routes, '/user/mcp');
    await screen.findByTestId('mcp-row-c-run');
    const filter = screen.getByTestId('mcp-status-filter');
    for (const label of ['全部', '运行中', '已停止', '创建中', '失败'])
      expect(within(filter).getByText(label)).toBeTruthy();
    fireEvent.click(within(filter).getByText('已停止'));
    await waitFor(() => expect(screen.queryByTestId('mcp-row-c-run')).toBeNull());
    expect(await screen.findByTestId('mcp-row-c-stop')).toBeTruthy();
    expect(requests.some((r) => r.search.get('status') === 'stopped')).toBe(true);
  });

  it('create: every required field first, then the payload with the chosen server and GPU count', async () => {
    const { requests } = fakeServer({
      'GET /api/mcp/containers': list([]),
      'GET /api/cloud-products': () => ({ body: { items: [server], total: 1 } }),
      'POST /api/mcp/containers': () => ({
        status: 201,
        body: { ...running, container_id: 'c-new', password_set: true },
      }),
    });
    renderRoutes(routes, '/user/mcp');
    fireEvent.click(await waitForButton(document.body, '创建容器'));
    const modal = await waitFor(dialog);
    fireEvent.change(within(modal).getByLabelText('名称'), { target: { value: 'my-agent' } });
    fireEvent.click(getButton(modal, '创建'));
    expect(await screen.findByText('请填写所有必填字段')).toBeTruthy();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    fireEvent.mouseDown(within(modal).getByLabelText('镜像'));
    fireEvent.click(await screen.findByTitle('Ubuntu 22.04 + CUDA 12.4 Jupyter'));
    fireEvent.mouseDown(within(modal).getByLabelText('服务器'));
    fireEvent.click(await screen.findByTitle('华东-4090（RTX 4090，空闲 6/8 卡，¥1.99/卡/小时）'));
    fireEvent.change(within(modal).getByLabelText('GPU 数量'), { target: { value: '3' } });
    fireEvent.change(within(modal).getByLabelText('密码'), { target: { value: 'S3cret-pass' } });
    fireEvent.click(getButton(modal, '创建'));
    expect(await screen.findByText('创建成功')).toBeTruthy();
    const post = requests.find((r) => r.method === 'POST' && r.path === '/api/mcp/containers');
    expect(post?.body).toEqual({
      name: 'my-agent',
      image_name: 'Ubuntu 22.04 + CUDA 12.4 Jupyter',
      product_id: 7,
      gpu_count: 3,
      password: 'S3cret-pass',
    });
    const products = requests.find((r) => r.path === '/api/cloud-products');
    expect(products?.search.get('status')).toBe('available');
  });

  it('a refused creation says 创建容器失败 with the server’s detail', async () => {
    fakeServer({
      'GET /api/mcp/containers': list([]),
      'GET /api/cloud-products': () => ({ body: { items: [server], total: 1 } }),
      'POST /api/mcp/containers': () => ({
        status: 402,
        body: { detail: '余额不足，账户余额需至少可支付1小时费用', code: 'INSUFFICIENT_BALANCE' },
      }),
    });
    renderRoutes(routes, '/user/mcp');
    fireEvent.click(await waitForButton(document.body, '创建容器'));
    const modal = await waitFor(dialog);
    fireEvent.change(within(modal).getByLabelText('名称'), { target: { value: 'x' } });
    fireEvent.mouseDown(within(modal).getByLabelText('镜像'));
    fireEvent.click(await screen.findByTitle('Windows 10 + CUDA 12.6'));
    fireEvent.mouseDown(within(modal).getByLabelText('服务器'));
    fireEvent.click(await screen.findByTitle(/^华东-4090/));
    fireEvent.change(within(modal).getByLabelText('密码'), { target: { value: 'S3cret-pass' } });
    fireEvent.click(getButton(modal, '创建'));
    expect(await screen.findByText('创建容器失败：余额不足，账户余额需至少可支付1小时费用')).toBeTruthy();
  });

  it('reset password needs the new password twice, then posts it', async () => {
    const { requests } = fakeServer({
      'GET /api/mcp/containers': list(),
      'POST /api/mcp/containers/c-run/reset-password': () => ({ body: { ok: true } }),
    });
    renderRoutes(routes, '/user/mcp');
    fireEvent.click(getButton(await screen.findByTestId('mcp-row-c-run'), '重置密码'));
    const modal = await waitFor(dialog);
    fireEvent.click(getButton(modal, '确定'));
    expect(await within(modal).findByText('请输入新密码')).toBeTruthy();
    fireEvent.change(within(modal).getByLabelText('新密码'), { target: { value: 'New-pass-123' } });
    fireEvent.change(within(modal).getByLabelText('确认密码'), { target: { value: 'New-pass-124' } });
    fireEvent.click(getButton(modal, '确定'));
    expect(await within(modal).findByText('两次输入的密码不一致')).toBeTruthy();
    fireEvent.change(within(modal).getByLabelText('确认密码'), { target: { value: 'New-pass-123' } });
    fireEvent.click(getButton(modal, '确定'));
    expect(await screen.findByText('密码重置成功')).toBeTruthy();
    const post = requests.find((r) => r.path === '/api/mcp/containers/c-run/reset-password');
    expect(post?.body).toEqual({ password: 'New-pass-123' });
  });

  it('logs: the text, 暂无日志 when empty, 获取日志失败 with the reason on failure', async () => {
    let answer: { status?: number; body: unknown } = {
      body: { logs: 'epoch 1 loss=0.5\nepoch 2 loss=0.4\n' },
    };
    fakeServer({
      'GET /api/mcp/containers': list(),
      'GET /api/mcp/containers/c-run/logs': () => answer,
    });
    renderRoutes(routes, '/user/mcp');
    fireEvent.click(getButton(await screen.findByTestId('mcp-row-c-run'), '日志'));
    expect((await screen.findByTestId('mcp-log-output')).textContent).toBe(
      'epoch 1 loss=0.5\nepoch 2 loss=0.4\n',
    );
    answer = { body: { logs: '' } };
    fireEvent.click(getButton(dialog(), '刷新'));
    expect(await screen.findByText('暂无日志')).toBeTruthy();
    answer = { status: 502, body: { detail: '无法连接节点', code: 'NODE_ERROR' } };
    fireEvent.click(getButton(dialog(), '刷新'));
    expect(await screen.findByText('获取日志失败')).toBeTruthy();
    expect(screen.getByText('无法连接节点')).toBeTruthy();
  });

  it('delete asks first and warns that it cannot be undone; a failure carries the detail', async () => {
    const { requests } = fakeServer({
      'GET /api/mcp/containers': list(),
      'DELETE /api/mcp/containers/c-stop': () => ({ status: 502, body: { detail: '节点拒绝了请求' } }),
    });
    renderRoutes(routes, '/user/mcp');
    fireEvent.click(getButton(await screen.findByTestId('mcp-row-c-stop'), '删除'));
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    expect(await screen.findByText(/此操作不可恢复/)).toBeTruthy();
    fireEvent.click(getButton(document.body, '确定'));
    expect(await screen.findByText('删除容器失败：节点拒绝了请求')).toBeTruthy();
    expect(findButtons(screen.getByTestId('mcp-row-c-stop'), '删除')).toHaveLength(1);
  });
});

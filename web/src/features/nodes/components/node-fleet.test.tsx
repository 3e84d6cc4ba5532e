import type { GpuNode } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { dialog, fakeServer, getButton, renderRoutes, waitForButton } from '../../../test/render';
import { aNode } from '../test-fixtures';

// Issue 19 in 节点: health at a glance, 维护 / 结束维护, 升级, removal refused with what keeps the
// node, and 添加节点 → 一键加入 (a join token and its command).

const GB = 1024 ** 3;

const healthy: GpuNode = aNode({
  status: 'online',
  last_heartbeat_at: '2026-11-25T10:00:00Z',
  heartbeat_age_ms: 3_000,
  gpu_total: 8,
  gpu_usage: { free: 5, used: 2, held: 1, total: 8 },
  nvidia_driver_version: '550.54.15',
  container_toolkit_version: '1.16.0',
  toolkit_unsafe: true,
  toolkit_unsafe_reason: 'NVIDIA Container Toolkit 1.16.0 低于 1.17.8',
  image_disk_free_bytes: 120 * GB,
  image_disk_total_bytes: 500 * GB,
  volume_disk_free_bytes: 2 * GB,
  volume_disk_total_bytes: 1000 * GB,
  last_error: '事件流中断：No connection established',
  last_error_at: '2026-11-25T09:58:00Z',
  agent_version: '0.1.0',
  agent_build: 'abc123def456',
  agent_outdated: true,
});

beforeEach(() => {
  setSession('tok', { username: 'root', nickname: '', isAdmin: true });
});

describe('节点 at a glance', () => {
  it('shows heartbeat age, GPUs free/used/held, driver and an unsafe toolkit in red, disks, the last error and 需升级', async () => {
    fakeServer({ 'GET /api/admin/nodes': () => ({ body: { items: [healthy], total: 1 } }) });
    renderRoutes(routes, '/admin/nodes');
    const row = await screen.findByTestId('node-row-7');
    expect(within(row).getByText('在线')).toBeTruthy();
    expect(within(row).getByText('3 秒前')).toBeTruthy();
    expect(within(row).getByText('空闲 5 · 已用 2 · 保留 1')).toBeTruthy();
    expect(within(row).getByText('驱动 550.54.15')).toBeTruthy();
    const toolkit = within(row).getByTestId('toolkit-unsafe');
    expect(toolkit.textContent).toBe('工具包 1.16.0（不安全）');
    expect(toolkit.className).toContain('ant-typography-danger');
    expect(within(row).getByText('镜像 可用 120 GB / 500 GB')).toBeTruthy();
    // Nearly full: shown as a warning.
    const volumes = within(row).getByText('存储卷 可用 2.00 GB / 1000 GB');
    expect(volumes.className).toContain('ant-typography-warning');
    expect(within(row).getByText('事件流中断：No connection established')).toBeTruthy();
    expect(within(row).getByText('0.1.0（abc123def456）')).toBeTruthy();
    expect(within(row).getByText('需升级')).toBeTruthy();
    expect(within(row).queryByText('维护中')).toBeNull();
  });

  it('a late heartbeat is red and a node without reports says 未知', async () => {
    fakeServer({
      'GET /api/admin/nodes': () => ({
        body: { items: [aNode({ heartbeat_age_ms: 125_000, agent_outdated: false })], total: 1 },
      }),
    });
    renderRoutes(routes, '/admin/nodes');
    const row = await screen.findByTestId('node-row-7');
    expect(within(row).getByText('2 分钟前').className).toContain('ant-typography-danger');
    expect(within(row).getByText('镜像 未知')).toBeTruthy();
    expect(within(row).getByText('未知')).toBeTruthy();
    expect(within(row).getByText('无')).toBeTruthy();
    expect(within(row).queryByText('需升级')).toBeNull();
    expect(within(row).queryByRole('button', { name: '升级' })).toBeNull();
  });
});

describe('维护', () => {
  it('puts a node in maintenance with a reason, shows 维护中, and ends it', async () => {
    let current: GpuNode = { ...healthy, agent_outdated: false };
    const { requests } = fakeServer({
      'GET /api/admin/nodes': () => ({ body: { items: [current], total: 1 } }),
      'POST /api/admin/nodes/7/maintenance': (r) => {
        current = {
          ...current,
          maintenance: {
            since: '2026-11-25T10:00:00Z',
            until: null,
            reason: (r.body as { reason: string }).reason,
          },
        };
        return { body: current };
      },
      'DELETE /api/admin/nodes/7/maintenance': () => {
        current = { ...current, maintenance: null };
        return { body: current };
      },
    });
    renderRoutes(routes, '/admin/nodes');
    fireEvent.click(getButton(await screen.findByTestId('node-row-7'), '维护'));
    await screen.findByText('维护节点 gpu-a');
    expect(within(dialog()).getByText(/运行中的容器继续运行并照常计费/)).toBeTruthy();
    fireEvent.change(within(dialog()).getByLabelText('维护原因'), { target: { value: '  更换电源 ' } });
    fireEvent.click(getButton(dialog(), '进入维护'));
    expect(await screen.findByText('节点 gpu-a 已进入维护')).toBeTruthy();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ reason: '更换电源' });
    const row = screen.getByTestId('node-row-7');
    await waitFor(() => expect(within(row).getByText('维护中')).toBeTruthy());

    fireEvent.click(getButton(row, '结束维护'));
    fireEvent.click(await waitForButton(document.body, '确定'));
    expect(await screen.findByText('节点 gpu-a 已结束维护')).toBeTruthy();
    expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/admin/nodes/7/maintenance')).toBe(
      true,
    );
    await waitFor(() => expect(within(row).queryByText('维护中')).toBeNull());
    expect(getButton(row, '维护')).toBeTruthy();
  });

  it('says why maintenance was refused', async () => {
    fakeServer({
      'GET /api/admin/nodes': () => ({ body: { items: [healthy], total: 1 } }),
      'POST /api/admin/nodes/7/maintenance': () => ({
        status: 400,
        body: { detail: '结束时间须晚于当前时间', code: 'VALIDATION' },
      }),
    });
    renderRoutes(routes, '/admin/nodes');
    fireEvent.click(getButton(await screen.findByTestId('node-row-7'), '维护'));
    await screen.findByText('维护节点 gpu-a');
    fireEvent.click(getButton(dialog(), '进入维护'));
    expect(await screen.findByText('进入维护失败：结束时间须晚于当前时间')).toBeTruthy();
  });
});

describe('升级', () => {
  it('starts an upgrade, shows 升级中 until the new version shows', async () => {
    let current: GpuNode = healthy;
    const { requests } = fakeServer({
      'GET /api/admin/nodes': () => ({ body: { items: [current], total: 1 } }),
      'POST /api/admin/nodes/7/upgrade': () => {
        current = { ...current, upgrading_since: '2026-11-25T10:00:00Z' };
        return {
          status: 202,
          body: {
            from: { version: '0.1.0', build: 'abc123def456' },
            to: { version: '0.2.0', build: 'fff000111222' },
          },
        };
      },
    });
    renderRoutes(routes, '/admin/nodes');
    const row = await screen.findByTestId('node-row-7');
    fireEvent.click(getButton(row, '升级'));
    fireEvent.click(getButton(document.querySelector('.ant-popover') as HTMLElement, '升级'));
    expect(await screen.findByText('节点 gpu-a 开始升级到 0.2.0')).toBeTruthy();
    expect(requests.some((r) => r.method === 'POST' && r.path === '/api/admin/nodes/7/upgrade')).toBe(true);
    await waitFor(() => expect(within(row).getByText('升级中')).toBeTruthy());
    // The agent comes back with the new version: the list (read every 2 s meanwhile) shows it.
    current = {
      ...current,
      upgrading_since: null,
      agent_version: '0.2.0',
      agent_build: 'fff000111222',
      agent_outdated: false,
    };
    await waitFor(() => expect(within(row).getByText('0.2.0（fff000111222）')).toBeTruthy(), {
      timeout: 6000,
    });
    expect(within(row).queryByText('升级中')).toBeNull();
    expect(within(row).queryByText('需升级')).toBeNull();
  });

  it('shows why an upgrade failed', async () => {
    fakeServer({
      'GET /api/admin/nodes': () => ({ body: { items: [healthy], total: 1 } }),
      'POST /api/admin/nodes/7/upgrade': () => ({
        status: 409,
        body: { detail: '节点代理未从安装包运行，无法在线升级', code: 'AGENT_NOT_BUNDLED' },
      }),
    });
    renderRoutes(routes, '/admin/nodes');
    fireEvent.click(getButton(await screen.findByTestId('node-row-7'), '升级'));
    fireEvent.click(getButton(document.querySelector('.ant-popover') as HTMLElement, '升级'));
    expect(await screen.findByText('升级失败：节点代理未从安装包运行，无法在线升级')).toBeTruthy();
  });
});

describe('删除', () => {
  it('shows which containers keep the node', async () => {
    const detail = '节点上仍有 2 个容器：train（c-1）、eval（c-2），请先销毁容器';
    fakeServer({
      'GET /api/admin/nodes': () => ({ body: { items: [healthy], total: 1 } }),
      'DELETE /api/admin/nodes/7': () => ({ status: 409, body: { detail, code: 'NODE_IN_USE' } }),
    });
    renderRoutes(routes, '/admin/nodes');
    fireEvent.click(getButton(await screen.findByTestId('node-row-7'), '删除'));
    fireEvent.click(await waitForButton(document.body, '确定'));
    expect((await screen.findAllByText('无法删除节点 gpu-a')).length).toBeGreaterThan(0);
    expect(screen.getAllByText(detail).length).toBeGreaterThan(0);
  });
});

describe('添加节点 → 一键加入', () => {
  it('makes a join token, shows the command to copy with its expiry, and lists and revokes tokens', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const command =
      'curl -fsSL https://console.example.com/install/agent.sh | sudo bash -s -- --join gcj_AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH';
    let tokens = [
      {
        id: 3,
        name: null,
        region: '华北一区',
        created_at: '2026-11-25T09:00:00Z',
        expires_at: '2026-11-25T10:00:00Z',
        used_at: null,
        node_id: null,
        status: 'pending',
      },
    ];
    const { requests } = fakeServer({
      'GET /api/admin/nodes': () => ({ body: { items: [], total: 0 } }),
      'GET /api/admin/nodes/join-tokens': () => ({ body: { items: tokens } }),
      'POST /api/admin/nodes/join-tokens': () => ({
        status: 201,
        body: {
          token: 'gcj_AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH',
          id: 4,
          expires_at: '2026-11-25T11:00:00Z',
          command,
          script_url: 'https://console.example.com/install/agent.sh',
        },
      }),
      'DELETE /api/admin/nodes/join-tokens/3': () => {
        tokens = [];
        return { body: { ok: true } };
      },
    });
    renderRoutes(routes, '/admin/nodes');
    fireEvent.click(await waitForButton(document.body, '添加节点'));
    const pending = await screen.findByTestId('join-token-3');
    expect(within(pending).getByText('待使用')).toBeTruthy();

    // The region is required.
    fireEvent.click(getButton(dialog(), '生成命令'));
    expect(await screen.findByText('请输入地区')).toBeTruthy();
    fireEvent.change(within(dialog()).getByLabelText('地区'), { target: { value: '华东一区' } });
    fireEvent.change(within(dialog()).getByLabelText('节点名称'), { target: { value: 'gpu-9' } });
    fireEvent.click(getButton(dialog(), '生成命令'));
    expect((await screen.findByTestId('join-command')).textContent).toBe(command);
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      region: '华东一区',
      name: 'gpu-9',
      expires_minutes: 60,
    });
    expect(screen.getByText(/有效期至 2026-11-25 \d\d:00:00，仅可使用一次/)).toBeTruthy();
    fireEvent.click(getButton(dialog(), '复制命令'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(command));
    expect(await screen.findByText('命令已复制')).toBeTruthy();

    fireEvent.click(getButton(pending, '撤销'));
    fireEvent.click(await waitForButton(document.querySelector('.ant-popover') as HTMLElement, '确定'));
    expect(await screen.findByText('加入令牌已撤销')).toBeTruthy();
    expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/admin/nodes/join-tokens/3')).toBe(
      true,
    );
    await waitFor(() => expect(screen.queryByTestId('join-token-3')).toBeNull());
  });
});

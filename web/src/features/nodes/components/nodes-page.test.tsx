import type { GpuNode } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes, waitForButton } from '../../../test/render';
import { aNode } from '../test-fixtures';

const node: GpuNode = aNode();

/** 添加节点 → 手动添加's form (the 一键加入 tab has a 地区 field too). */
function manualForm(): HTMLElement {
  const form = document.querySelector<HTMLElement>('form#add-node');
  if (!form) throw new Error('no manual add form');
  return form;
}

beforeEach(() => {
  setSession('tok', { username: 'root', nickname: '', isAdmin: true });
});

describe('admin nodes', () => {
  it('adds a node through the dialog, checking the gRPC address first', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/nodes': () => ({ body: { items: [node], total: 1 } }),
      'POST /api/admin/nodes': () => ({ status: 201, body: { ...node, id: 8, name: 'gpu-b' } }),
    });
    renderRoutes(routes, '/admin/nodes');
    const row = await screen.findByTestId('node-row-7');
    expect(within(row).getByText('离线')).toBeTruthy();
    expect(within(row).getByText('无心跳')).toBeTruthy();

    fireEvent.click(getButton(document.body, '添加节点'));
    fireEvent.click(await screen.findByText('手动添加'));
    const dialog = await screen.findByText('公网地址');
    expect(dialog).toBeTruthy();
    const form = manualForm();
    fireEvent.change(within(form).getByLabelText('名称'), { target: { value: 'gpu-b' } });
    fireEvent.change(within(form).getByLabelText('gRPC 地址'), { target: { value: 'no-port' } });
    fireEvent.change(within(form).getByLabelText('令牌'), { target: { value: 'secret-token' } });
    fireEvent.change(within(form).getByLabelText('地区'), { target: { value: '华北一区' } });
    fireEvent.click(getButton(document.body, '添加'));
    expect(await screen.findByText('请输入正确的 gRPC 地址，格式为 host:port')).toBeTruthy();

    fireEvent.change(within(form).getByLabelText('gRPC 地址'), { target: { value: '10.0.0.2:50051' } });
    fireEvent.click(getButton(document.body, '添加'));
    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'gpu-b',
      address: '10.0.0.2:50051',
      token: 'secret-token',
      region: '华北一区',
    });
    expect(await screen.findByText('节点 gpu-b 已添加')).toBeTruthy();
  });

  it('an unreachable node is reported with the server detail', async () => {
    fakeServer({
      'GET /api/admin/nodes': () => ({ body: { items: [], total: 0 } }),
      'POST /api/admin/nodes': () => ({
        status: 502,
        body: { detail: '无法连接节点', code: 'NODE_UNREACHABLE' },
      }),
    });
    renderRoutes(routes, '/admin/nodes');
    fireEvent.click(await waitForButton(document.body, '添加节点'));
    fireEvent.click(await screen.findByText('手动添加'));
    await screen.findByText('公网地址');
    const form = manualForm();
    fireEvent.change(within(form).getByLabelText('名称'), { target: { value: 'gpu-b' } });
    fireEvent.change(within(form).getByLabelText('gRPC 地址'), { target: { value: '10.0.0.2:50051' } });
    fireEvent.change(within(form).getByLabelText('令牌'), { target: { value: 't' } });
    fireEvent.change(within(form).getByLabelText('地区'), { target: { value: '华北一区' } });
    fireEvent.click(getButton(document.body, '添加'));
    expect(await screen.findByText('添加节点失败：无法连接节点')).toBeTruthy();
  });

  it('deletes a node after confirmation', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/nodes': () => ({ body: { items: [node], total: 1 } }),
      'DELETE /api/admin/nodes/7': () => ({ body: { ok: true } }),
    });
    renderRoutes(routes, '/admin/nodes');
    fireEvent.click(getButton(await screen.findByTestId('node-row-7'), '删除'));
    fireEvent.click(await waitForButton(document.body, '确定'));
    await waitFor(() =>
      expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/admin/nodes/7')).toBe(true),
    );
  });

  it('shows the images a node holds and warms one: 预热中 with its percentage, then 已缓存', async () => {
    let warming = false;
    let polls = 0;
    const images = () => {
      polls += 1;
      const progress = warming ? Math.min(100, polls * 30) : 0;
      return {
        body: {
          items: [
            {
              image: 'pytorch/pytorch:2.4.0-cuda12.4-cudnn9-devel',
              versions: ['PyTorch 2.4.0'],
              in_catalogue: true,
              status: 'present',
              progress: 100,
              size_bytes: 10 * 1024 ** 3,
              error: null,
              updated_at: '2026-11-24T10:00:00Z',
            },
            {
              image: 'nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04',
              versions: ['CUDA 12.4'],
              in_catalogue: true,
              status: warming ? (progress >= 100 ? 'present' : 'pulling') : 'absent',
              progress,
              pull_phase: warming && progress < 100 ? (progress < 60 ? 'downloading' : 'extracting') : null,
              size_bytes: warming && progress >= 100 ? 5 * 1024 ** 3 : null,
              error: null,
              updated_at: null,
            },
          ],
          total: 2,
          disk_total_bytes: 500 * 1024 ** 3,
          disk_free_bytes: 120 * 1024 ** 3,
          listed_at: '2026-11-24T10:00:00Z',
        },
      };
    };
    const { requests } = fakeServer({
      'GET /api/admin/nodes': () => ({ body: { items: [node], total: 1 } }),
      'GET /api/admin/nodes/7': () => ({ body: { ...node, gpus: [], unknown_containers: [] } }),
      'GET /api/admin/nodes/7/metrics': () => ({ body: { gpus: [], samples: [] } }),
      'GET /api/admin/nodes/7/images': images,
      'POST /api/admin/nodes/7/images/warm': () => {
        warming = true;
        polls = 0;
        return { status: 202, body: { status: 'pulling', progress: 0 } };
      },
    });
    renderRoutes(routes, '/admin/nodes');
    fireEvent.click(getButton(await screen.findByTestId('node-row-7'), '详情'));
    const held = await screen.findByTestId('node-image-pytorch/pytorch:2.4.0-cuda12.4-cudnn9-devel');
    expect(within(held).getByText('已缓存')).toBeTruthy();
    expect(within(held).getByText('10.0 GB')).toBeTruthy();
    expect(within(held).queryByRole('button', { name: '预热' })).toBeNull();
    expect(await screen.findByText(/镜像磁盘：可用 120 GB \/ 共 500 GB/)).toBeTruthy();

    const cuda = screen.getByTestId('node-image-nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04');
    expect(within(cuda).getByText('未缓存')).toBeTruthy();
    fireEvent.click(getButton(cuda, '预热'));
    expect(await screen.findByText('已开始预热 nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04')).toBeTruthy();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      image: 'nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04',
    });
    // The table polls while the warm-up runs: a percentage with its bar and phase, then the image is there.
    expect(await within(cuda).findByText('预热中 30%', {}, { timeout: 5000 })).toBeTruthy();
    expect(within(cuda).getByText('下载中')).toBeTruthy();
    expect(within(cuda).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('30');
    expect(await within(cuda).findByText('预热中 60%', {}, { timeout: 5000 })).toBeTruthy();
    expect(within(cuda).getByText('解压中')).toBeTruthy();
    await waitFor(() => expect(within(cuda).getByText('已缓存')).toBeTruthy(), { timeout: 10_000 });
  }, 20_000);

  it('says why a warm-up was refused', async () => {
    fakeServer({
      'GET /api/admin/nodes': () => ({ body: { items: [node], total: 1 } }),
      'GET /api/admin/nodes/7': () => ({ body: { ...node, gpus: [], unknown_containers: [] } }),
      'GET /api/admin/nodes/7/metrics': () => ({ body: { gpus: [], samples: [] } }),
      'GET /api/admin/nodes/7/images': () => ({
        body: {
          items: [
            {
              image: 'nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04',
              versions: ['CUDA 12.4'],
              in_catalogue: true,
              status: 'failed',
              progress: 0,
              size_bytes: null,
              error: '镜像拉取失败 (manifest unknown)',
              updated_at: null,
            },
          ],
          total: 1,
          disk_total_bytes: null,
          disk_free_bytes: null,
          listed_at: null,
        },
      }),
      'POST /api/admin/nodes/7/images/warm': () => ({
        status: 503,
        body: { detail: '节点离线，无法预热镜像', code: 'NODE_OFFLINE' },
      }),
    });
    renderRoutes(routes, '/admin/nodes');
    fireEvent.click(getButton(await screen.findByTestId('node-row-7'), '详情'));
    const row = await screen.findByTestId('node-image-nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04');
    expect(within(row).getByText('预热失败')).toBeTruthy();
    expect(within(row).getByText('镜像拉取失败 (manifest unknown)')).toBeTruthy();
    expect(screen.getByText(/镜像磁盘：未知/)).toBeTruthy();
    fireEvent.click(getButton(row, '重新预热'));
    expect(await screen.findByText('预热失败：节点离线，无法预热镜像')).toBeTruthy();
  });
});

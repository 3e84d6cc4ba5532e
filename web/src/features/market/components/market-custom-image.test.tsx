import type { CloudProduct } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes, selectInput } from '../../../test/render';
import { anImage, imageList } from '../../images/test-fixtures';

const product: CloudProduct = {
  id: 1,
  name: 'node-a RTX 4090',
  region: '华东一区',
  gpu_type: 'RTX 4090',
  gpu_count: '6/8',
  gpu_available: 6,
  gpu_total: 8,
  cpu_model: 'EPYC 7543',
  cpu_cores: 64,
  memory: '32GB',
  disk_size: '200GB NVMe',
  price: 2.5,
  no_gpu_price: 0.25,
  server_config: { system_gpu_type: 'ubuntu' },
  status: 'available',
  node_id: 1,
  simulated: false,
  warm_version_ids: [],
};

function server() {
  return fakeServer({
    'GET /api/cloud-products/regions': () => ({ body: ['华东一区'] }),
    'GET /api/cloud-products/gpu-types': () => ({ body: ['RTX 4090'] }),
    'GET /api/cloud-products': () => ({ body: { items: [product], total: 1 } }),
    'GET /api/frameworks': () => ({ body: [{ id: 2, name: 'PyTorch' }] }),
    'GET /api/cloud-products/1/port': () => ({ body: [] }),
    'GET /api/images/mine': () => ({
      body: imageList([
        anImage({ id: 5, name: 'my-env', tag: 'v1', size_bytes: 3 * 1024 ** 3 }),
        anImage({ id: 6, name: 'wip', status: 'saving', progress: 30 }),
        anImage({ id: 7, name: 'bert', tag: 'v2', size_bytes: 1536 * 1024 ** 2 }),
      ]),
    }),
    'POST /api/cloud-products/1/purchase': () => ({
      status: 201,
      body: { container_id: 'c9', status: 'creating' },
    }),
    'GET /api/containers': () => ({ body: { items: [], total: 0 } }),
  });
}

beforeEach(() => {
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});

async function openDialog() {
  fireEvent.click(await screen.findByTestId('buy-1'));
  return (await screen.findByText('创建实例')).closest('.ant-modal-content') as HTMLElement;
}

async function buy(dialog: HTMLElement) {
  fireEvent.click(within(dialog).getByText('我已阅读并同意服务条款'));
  await waitFor(() => expect(getButton(document.body, '确认创建').disabled).toBe(false));
  fireEvent.click(getButton(document.body, '确认创建'));
}

describe('创建实例 from 自定义镜像', { timeout: 120_000 }, () => {
  it('lists the user’s ready images and sends imageType custom with customImageId', async () => {
    const { requests } = server();
    const { router } = renderRoutes(routes, '/market');
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByText('自定义镜像'));
    const select = await waitFor(() => selectInput(dialog, '镜像'));
    // Nothing chosen: the image is required, with the server's word.
    await buy(dialog);
    expect(await within(dialog).findByText('请选择镜像')).toBeTruthy();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    fireEvent.mouseDown(select);
    expect(await screen.findByTitle('bert:v2（1.50 GB）')).toBeTruthy();
    expect(screen.queryByTitle(/^wip:latest/)).toBeNull();
    fireEvent.click(screen.getByTitle('my-env:v1（3.00 GB）'));
    fireEvent.click(getButton(document.body, '确认创建'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/containers'));
    const purchase = requests.find((r) => r.method === 'POST' && r.path === '/api/cloud-products/1/purchase');
    expect(purchase?.body).toMatchObject({
      imageType: 'custom',
      customImageId: 5,
      gpuCount: 1,
      agreeTerms: true,
    });
    expect(purchase?.body).not.toHaveProperty('framework');
    expect(purchase?.body).not.toHaveProperty('frameworkVersion');
  });

  it('/market?imageType=custom&image=<id> (我的镜像 → 创建实例) preselects that image', async () => {
    const { requests } = server();
    renderRoutes(routes, '/market?imageType=custom&image=7');
    await waitFor(() =>
      expect(screen.getByTestId('market-preset').textContent).toContain('已选择自定义镜像：bert:v2'),
    );
    const dialog = await openDialog();
    expect(within(dialog).getByText('自定义镜像').closest('label')?.className).toContain('checked');
    await within(dialog).findByText('bert:v2（1.50 GB）', { selector: '.ant-select-selection-item' });
    await buy(dialog);
    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    expect(requests.find((r) => r.method === 'POST')?.body).toMatchObject({
      imageType: 'custom',
      customImageId: 7,
    });
  });
});

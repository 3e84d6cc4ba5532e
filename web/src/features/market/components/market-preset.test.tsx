import type { CloudProduct } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { PENDING_DEPLOY_KEY } from '../../../lib/pending-deploy';
import { fakeServer, getButton, renderRoutes } from '../../../test/render';

// antd screens render slowly in jsdom, more so while other test files run in parallel: wait longer
// than the default for them (this file only; vitest isolates test files).

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
    'GET /api/frameworks': () => ({
      body: [
        { id: 1, name: 'Base' },
        { id: 2, name: 'PyTorch' },
      ],
    }),
    'GET /api/frameworks/2/versions': () => ({
      body: [
        { id: 7, version: '2.5.1-cuda12.4', system_type: 'ubuntu', ports: { ssh: 22, jupyter: 8888 } },
        { id: 8, version: '2.4.1-cuda12.1', system_type: 'ubuntu', ports: { ssh: 22, jupyter: 8888 } },
      ],
    }),
    'GET /api/cloud-products/1/port': () => ({ body: [] }),
  });
}

beforeEach(() => {
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});

describe('the market after 立即部署', { timeout: 60_000 }, () => {
  it('adopts the choice stored before sign-in, forgets it, and preselects it when buying', async () => {
    window.localStorage.setItem(
      PENDING_DEPLOY_KEY,
      JSON.stringify({
        framework: '2',
        version: '7',
        imageType: 'public',
        imageName: 'PyTorch',
        savedAt: Date.now(),
      }),
    );
    server();
    const { router } = renderRoutes(routes, '/market');
    await screen.findByTestId('buy-1');
    await waitFor(() => expect(router.state.location.search).toBe('?framework=2&version=7&imageType=public'));
    expect(window.localStorage.getItem(PENDING_DEPLOY_KEY)).toBeNull();
    await waitFor(() =>
      expect(screen.getByTestId('market-preset').textContent).toContain('PyTorch 2.5.1-cuda12.4'),
    );
    // Nothing opens by itself.
    expect(screen.queryByText('创建实例')).toBeNull();

    fireEvent.click(await screen.findByTestId('buy-1'));
    const dialog = (await screen.findByText('创建实例')).closest('.ant-modal-content') as HTMLElement;
    await within(dialog).findByText('PyTorch', { selector: '.ant-select-selection-item' });
    await within(dialog).findByText('2.5.1-cuda12.4', { selector: '.ant-select-selection-item' });
    expect(within(dialog).getByText('公共镜像').closest('label')?.className).toContain('checked');
  });

  it('shows the price formula with the discount as 折', async () => {
    server();
    renderRoutes(routes, '/market');
    fireEvent.click(await screen.findByTestId('buy-1'));
    await screen.findByText('创建实例');
    expect(screen.getByTestId('purchase-formula').textContent).toBe('¥2.50/卡/时 × 1卡 × 1小时 = ¥2.50');
    expect(screen.getByTestId('purchase-discount').textContent).toBe('无折扣');
    const dialog = document.querySelector('.ant-modal-content') as HTMLElement;
    fireEvent.mouseDown(within(dialog).getByLabelText('计费方式'));
    fireEvent.click(await screen.findByTitle('包日（9.5折）'));
    await waitFor(() => expect(screen.getByTestId('purchase-discount').textContent).toBe('9.5折'));
    expect(screen.getByTestId('purchase-formula').textContent).toBe(
      '¥2.50/卡/时 × 1卡 × 1天 × 24小时/天 × 9.5折 = ¥57.00',
    );
    expect(screen.getByTestId('purchase-total').textContent).toBe('¥57.00');
    expect(getButton(document.body, '确认创建').disabled).toBe(true);
  });
});

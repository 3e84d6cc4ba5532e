import type { AppImage, CloudProduct } from '@gpucloud/control-plane/api';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { PENDING_DEPLOY_KEY } from '../../../lib/pending-deploy';
import { siteKeys } from '../../../lib/query-keys';
import {
  fakeServer,
  getButton,
  type RecordedRequest,
  renderRoutes,
  selectInput,
  waitForButton,
} from '../../../test/render';

// antd screens render slowly in jsdom, more so while other test files run in parallel: wait longer
// than the default for them (this file only; vitest isolates test files).

const pytorch: AppImage = {
  id: 4,
  name: 'PyTorch 2.5.1',
  icon: '',
  description: 'PyTorch 2.5.1 + CUDA 12.4，预装 JupyterLab',
  category: 'pytorch',
  created_at: '2025-03-01T08:00:00Z',
  framework_version_id: 7,
  framework: { id: 2, name: 'PyTorch', version: { id: 7, name: '2.5.1-cuda12.4', cuda_version: '12.4' } },
};
const llama: AppImage = {
  ...pytorch,
  id: 5,
  name: 'Llama 推理',
  icon: 'https://cdn.example/llama.png',
  category: 'nlp',
  description: '大模型推理服务',
};

const imageCalls = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.path === '/api/images').map((r) => r.search.toString());

function catalogue(extra: Parameters<typeof fakeServer>[0] = {}) {
  return fakeServer({
    'GET /api/images': (request) => {
      const category = request.search.get('category');
      const search = request.search.get('search');
      const items = [pytorch, llama].filter(
        (image) => (!category || image.category === category) && (!search || image.name.includes(search)),
      );
      return { body: items };
    },
    ...extra,
  });
}

describe('app market', { timeout: 60_000 }, () => {
  beforeEach(() => window.localStorage.clear());

  it('shows cards with icon, tags, description, version and date; filters by category and search', async () => {
    const { requests } = catalogue();
    renderRoutes(routes, '/apps');
    const card = await screen.findByTestId('app-card-4');
    expect(within(card).getByText('PyTorch 2.5.1')).toBeTruthy();
    expect(within(card).getByText('PyTorch')).toBeTruthy();
    expect(within(card).getByText('CUDA 12.4')).toBeTruthy();
    expect(within(card).getByText('版本：2.5.1-cuda12.4')).toBeTruthy();
    expect(within(card).getByText('更新于 2025-03-01')).toBeTruthy();
    expect(within(card).getByTestId('app-default-icon')).toBeTruthy();
    expect(within(screen.getByTestId('app-card-5')).getByAltText('Llama 推理 图标')).toBeTruthy();
    expect(getButton(card, '立即部署')).toBeTruthy();
    expect(getButton(card, '详情')).toBeTruthy();

    const sidebar = document.querySelector('nav[aria-label="应用分类"]') as HTMLElement;
    for (const label of ['全部', 'PyTorch', 'TensorFlow', '自然语言处理', '计算机视觉', '机器学习']) {
      expect(within(sidebar).getByText(label)).toBeTruthy();
    }
    fireEvent.click(within(sidebar).getByText('自然语言处理'));
    await waitFor(() => expect(screen.queryByTestId('app-card-4')).toBeNull());
    expect(screen.getByTestId('app-card-5')).toBeTruthy();
    expect(imageCalls(requests)).toContain('category=nlp');

    fireEvent.click(within(sidebar).getByText('全部'));
    fireEvent.change(screen.getByLabelText('搜索应用'), { target: { value: 'PyTorch' } });
    fireEvent.click(getButton(document.body, '搜索'));
    await waitFor(() => expect(screen.queryByTestId('app-card-5')).toBeNull());
    expect(imageCalls(requests)).toContain('search=PyTorch');
  });

  it('when the list cannot be loaded, says 获取应用列表失败', async () => {
    fakeServer({ 'GET /api/images': () => ({ status: 500, body: { detail: '数据库不可用' } }) });
    renderRoutes(routes, '/apps');
    expect(await screen.findByText('获取应用列表失败')).toBeTruthy();
  });

  it('the banner stays dismissed', async () => {
    catalogue();
    renderRoutes(routes, '/apps');
    const banner = await screen.findByTestId('apps-banner');
    fireEvent.click(within(banner).getByLabelText('关闭横幅'));
    await waitFor(() => expect(screen.queryByTestId('apps-banner')).toBeNull());
    cleanup();
    renderRoutes(routes, '/apps');
    await screen.findByTestId('app-card-4');
    expect(screen.queryByTestId('apps-banner')).toBeNull();
  });

  it('the banner says the trial credit the server gives, and only the pitch when it gives none', async () => {
    catalogue({ 'GET /api/site': () => ({ body: { new_user_credit: 20 } }) });
    renderRoutes(routes, '/apps');
    const banner = await screen.findByTestId('apps-banner');
    expect(await within(banner).findByText('新用户注册即送 20 元体验金')).toBeTruthy();
    expect(within(banner).getByText(/^热门深度学习框架与模型镜像/)).toBeTruthy();
    cleanup();

    catalogue({ 'GET /api/site': () => ({ body: { new_user_credit: 0 } }) });
    const { queryClient } = renderRoutes(routes, '/apps');
    const pitchOnly = await screen.findByTestId('apps-banner');
    await waitFor(() => expect(queryClient.getQueryState(siteKeys.info())?.status).toBe('success'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(within(pitchOnly).getByText(/^热门深度学习框架与模型镜像/)).toBeTruthy();
    expect(within(pitchOnly).queryByText(/体验金/)).toBeNull();
  });

  it('立即部署 while signed out remembers the choice and goes to sign in, back to /market', async () => {
    catalogue();
    const { router } = renderRoutes(routes, '/apps');
    fireEvent.click(getButton(await screen.findByTestId('app-card-4'), '立即部署'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/market');
    expect(JSON.parse(window.localStorage.getItem(PENDING_DEPLOY_KEY) ?? '{}')).toMatchObject({
      framework: '2',
      version: '7',
      imageType: 'public',
    });
  });

  it('立即部署 while signed in goes to the market with the choice in the query', async () => {
    setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
    catalogue();
    const { router } = renderRoutes(routes, '/apps');
    fireEvent.click(getButton(await screen.findByTestId('app-card-4'), '立即部署'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/market'));
    expect(router.state.location.search).toBe('?framework=2&version=7&imageType=public');
  });
});

describe('details and the deploy drawer', { timeout: 60_000 }, () => {
  beforeEach(() => setSession('tok', { username: 'alice', nickname: '', isAdmin: false }));

  async function openDeploy() {
    fireEvent.click(getButton(await screen.findByTestId('app-card-4'), '详情'));
    expect(await screen.findByText('应用详情')).toBeTruthy();
    expect(screen.getAllByText('PyTorch 2.5.1 + CUDA 12.4，预装 JupyterLab').length).toBeGreaterThan(0);
    fireEvent.click(await waitForButton(document.body, '一键部署'));
    expect(await screen.findByText('一键部署 - PyTorch 2.5.1')).toBeTruthy();
  }

  const product = (gpuType: string, price: number): CloudProduct => ({
    id: gpuType === 'a100' ? 2 : 1,
    name: gpuType === 'a100' ? 'A100 服务器' : '4090 服务器',
    region: '华东一区',
    gpu_type: gpuType === 'a100' ? 'A100' : 'RTX 4090',
    gpu_count: '8/8',
    gpu_available: 8,
    gpu_total: 8,
    cpu_model: 'EPYC',
    cpu_cores: 64,
    memory: '512GB',
    disk_size: '2TB',
    price,
    no_gpu_price: 0.5,
    server_config: { system_gpu_type: 'ubuntu' },
    status: 'available',
    node_id: 1,
    simulated: true,
    warm_version_ids: [],
  });
  /** The quote: RTX 4090 at ¥1.99/卡/时, A100 at ¥0.07/卡/时 (so 3 cards cost ¥0.21, in fen). */
  const quote = {
    'GET /api/apps/deploy-quote': (request: RecordedRequest) =>
      request.search.get('gpu_type') === 'a100'
        ? { body: product('a100', 0.07) }
        : { body: product('rtx4090', 1.99) },
  };
  const terms = () => screen.getByTestId('deploy-terms') as HTMLInputElement;
  const deployButton = () => screen.getByTestId('deploy-submit') as HTMLButtonElement;

  it('shows the price of the chosen GPU model and count, and deploys only once the terms are ticked', async () => {
    const { requests } = catalogue({
      ...quote,
      'POST /api/apps/deploy': () => ({
        status: 201,
        body: { container_id: 'c-new', status: 'creating', product_id: 2, total_price: 0.21 },
      }),
      'GET /api/containers': () => ({ body: { items: [], total: 0 } }),
    });
    const { router } = renderRoutes(routes, '/apps');
    await openDeploy();
    const price = screen.getByTestId('deploy-price');
    // 1 × RTX 4090 for one hour, the purchase dialog's summary and formula.
    await waitFor(() => expect(within(price).getByTestId('purchase-total').textContent).toBe('¥1.99'));
    expect(within(price).getByText('4090 服务器')).toBeTruthy();
    expect(within(price).getByTestId('deploy-hourly').textContent).toBe('¥1.99/时');
    expect(within(price).getByTestId('purchase-formula').textContent).toBe(
      '¥1.99/卡/时 × 1卡 × 1小时 = ¥1.99',
    );
    expect(
      within(price).getByText(
        '按小时计费：运行期间每小时 ¥1.99，按实际运行时长从余额扣费；账户余额需至少可支付1小时费用。',
      ),
    ).toBeTruthy();
    // The terms: the purchase dialog's words, with the agreement one click away.
    expect(terms().closest('label')?.querySelector('a')?.getAttribute('href')).toBe('/agreement');
    expect(terms().closest('label')?.textContent).toBe('我已阅读并同意服务条款');
    expect(terms().checked).toBe(false);
    expect(deployButton().disabled).toBe(true);

    fireEvent.change(screen.getByLabelText('实例名称'), { target: { value: 'my-llm' } });
    fireEvent.click(screen.getByText('A100'));
    fireEvent.mouseDown(selectInput(document.body, 'GPU 数量'));
    fireEvent.click(await screen.findByTitle('3 卡'));
    await waitFor(() => expect(within(price).getByTestId('purchase-total').textContent).toBe('¥0.21'));
    expect(within(price).getByText('A100 服务器')).toBeTruthy();
    expect(within(price).getByTestId('purchase-formula').textContent).toBe(
      '¥0.07/卡/时 × 3卡 × 1小时 = ¥0.21',
    );
    expect(
      requests
        .filter((r) => r.path === '/api/apps/deploy-quote')
        .map((r) => r.search.toString())
        .at(-1),
    ).toBe('image_id=4&gpu_type=a100&gpuCount=3');

    fireEvent.click(getButton(document.body, '添加环境变量'));
    fireEvent.change(screen.getByLabelText('环境变量1名称'), { target: { value: 'NVIDIA_X' } });
    fireEvent.change(screen.getByLabelText('环境变量1值'), { target: { value: '1' } });
    expect(deployButton().disabled).toBe(true);
    fireEvent.click(terms());
    await waitFor(() => expect(deployButton().disabled).toBe(false));
    fireEvent.click(deployButton());
    expect(await screen.findByText('不能设置 NVIDIA_ 开头的环境变量（NVIDIA_REQUIRE_* 除外）')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('环境变量1名称'), { target: { value: 'MODEL' } });
    fireEvent.click(deployButton());

    await waitFor(() => expect(router.state.location.pathname).toBe('/user/containers'));
    expect(await screen.findByText('实例已创建，正在拉取镜像并启动，进度见我的容器')).toBeTruthy();
    const deploys = requests.filter((r) => r.method === 'POST' && r.path === '/api/apps/deploy');
    expect(deploys).toHaveLength(1);
    expect(deploys[0]?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(deploys[0]?.body).toEqual({
      image_id: 4,
      instanceName: 'my-llm',
      gpu_type: 'a100',
      gpuCount: 3,
      env: [{ key: 'MODEL', value: '1' }],
      agreeTerms: true,
      total_price: 0.21,
    });
  });

  it('unticking the terms disables 部署 again; no server for the choice says so and cannot deploy', async () => {
    const { requests } = catalogue({
      'GET /api/apps/deploy-quote': (request) =>
        request.search.get('gpu_type') === 'a100'
          ? { status: 409, body: { detail: '暂无满足条件的服务器，请更换 GPU 型号或减少数量' } }
          : { body: product('rtx4090', 1.99) },
    });
    renderRoutes(routes, '/apps');
    await openDeploy();
    await waitFor(() => expect(screen.getByTestId('purchase-total').textContent).toBe('¥1.99'));
    fireEvent.click(terms());
    await waitFor(() => expect(deployButton().disabled).toBe(false));
    fireEvent.click(terms());
    await waitFor(() => expect(deployButton().disabled).toBe(true));
    fireEvent.click(terms());
    fireEvent.click(screen.getByText('A100'));
    expect(
      await screen.findByText('无法获取价格：暂无满足条件的服务器，请更换 GPU 型号或减少数量'),
    ).toBeTruthy();
    expect(screen.queryByTestId('purchase-total')).toBeNull();
    expect(deployButton().disabled).toBe(true);
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('a refusal says 创建失败 with the server detail; an accepted one says it is being created', async () => {
    let refuse = true;
    catalogue({
      ...quote,
      'POST /api/apps/deploy': () =>
        refuse
          ? { status: 400, body: { detail: '价格已变化，请刷新后重试' } }
          : { status: 201, body: { container_id: 'c-new', status: 'creating' } },
      'GET /api/containers': () => ({ body: { items: [], total: 0 } }),
    });
    const { router } = renderRoutes(routes, '/apps');
    await openDeploy();
    await waitFor(() => expect(screen.getByTestId('purchase-total').textContent).toBe('¥1.99'));
    fireEvent.click(terms());
    await waitFor(() => expect(deployButton().disabled).toBe(false));
    fireEvent.click(deployButton());
    expect(await screen.findByText('创建失败：价格已变化，请刷新后重试')).toBeTruthy();
    refuse = false;
    fireEvent.click(deployButton());
    expect(await screen.findByText('实例已创建，正在拉取镜像并启动，进度见我的容器')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/containers'));
  });
});

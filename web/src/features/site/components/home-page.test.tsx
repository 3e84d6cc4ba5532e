import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { siteKeys } from '../../../lib/query-keys';
import { fakeServer, renderRoutes } from '../../../test/render';

/** The home page, with GET /api/site giving new users `credit` yuan (not the old fixed 20). */
async function renderHome(credit = 12.5) {
  fakeServer({ 'GET /api/site': () => ({ body: { new_user_credit: credit } }) });
  const view = renderRoutes(routes, '/');
  await screen.findByTestId('hero-market-link');
  return view;
}

/** Waits until GET /api/site has answered and the page has rendered what it said. */
async function siteAnswered(view: Awaited<ReturnType<typeof renderHome>>) {
  await waitFor(() => expect(view.queryClient.getQueryState(siteKeys.info())?.status).toBe('success'));
  await new Promise((resolve) => setTimeout(resolve, 20));
}

const sectionNamed = (name: string) => screen.getByRole('region', { name });

describe('home page', () => {
  it('has the hero, the app ecosystem and the eight feature cards', async () => {
    await renderHome();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('GPU 云平台');
    const apps = sectionNamed('应用生态');
    for (const app of ['PyTorch', 'DeepSeek-R1-Distill-Qwen-7B', 'ComfyUI']) {
      expect(within(apps).getByRole('heading', { name: app })).toBeTruthy();
    }
    const features = within(sectionNamed('为什么选择我们')).getAllByRole('heading', { level: 3 });
    expect(features.map((heading) => heading.textContent)).toEqual([
      'GPU 集群',
      '一键环境',
      '灵活计费',
      '安全可靠',
      'AI 运维',
      '快速搭建 AI 应用',
      '定制化微调',
      'GPU 服务器租用',
    ]);
  });

  it('shows the statistics, six use cases, a success case and the 7x24 guarantee', async () => {
    await renderHome();
    const stats = screen.getByTestId('home-stats');
    for (const [value, label] of [
      ['50+', 'GPU 节点'],
      ['20+', '常用 AI 应用'],
      ['99.9%', '服务可用性'],
    ] as const) {
      expect(within(stats).getByText(value)).toBeTruthy();
      expect(within(stats).getByText(label)).toBeTruthy();
    }
    expect(within(sectionNamed('应用场景')).getAllByRole('heading', { level: 3 })).toHaveLength(6);
    expect(within(sectionNamed('客户案例')).getByRole('heading', { level: 3 })).toBeTruthy();
    expect(within(sectionNamed('服务保障')).getByText('7×24')).toBeTruthy();
  });

  it('ends with a footer of links, the ICP filing and the copyright line', async () => {
    await renderHome();
    const footer = screen.getByRole('contentinfo');
    const links = within(footer).getByRole('navigation', { name: '页脚导航' });
    expect(within(links).getByRole('link', { name: '服务条款' }).getAttribute('href')).toBe('/agreement');
    expect(within(links).getByRole('link', { name: '隐私政策' }).getAttribute('href')).toBe('/privacy');
    expect(within(footer).getByRole('link', { name: /ICP备/ }).getAttribute('href')).toBe(
      'https://beian.miit.gov.cn/',
    );
    expect(footer.textContent).toContain(`© ${new Date().getFullYear()}`);
  });

  it('offers new visitors the server’s trial credit until they close the banner', async () => {
    await renderHome(12.5);
    const banner = await screen.findByTestId('promo-banner');
    expect(banner.textContent).toContain('新用户注册即送 12.5 元体验金');
    expect(screen.getByRole('region', { name: '开启您的 AI 算力之旅' }).textContent).toContain(
      '注册即送 12.5 元体验金，几分钟创建第一台 GPU 实例',
    );
    expect(
      within(banner)
        .getByRole('link', { name: /立即注册/ })
        .getAttribute('href'),
    ).toBe('/register');
    fireEvent.click(within(banner).getByRole('button', { name: '关闭新用户福利提示' }));
    expect(screen.queryByTestId('promo-banner')).toBeNull();
  });

  it('says no trial credit when the server gives none, nor any number while it cannot say', async () => {
    const view = await renderHome(0);
    await siteAnswered(view);
    expect(screen.queryByTestId('promo-banner')).toBeNull();
    expect(screen.queryByText(/体验金/)).toBeNull();
    expect(screen.getByRole('region', { name: '开启您的 AI 算力之旅' }).textContent).toContain(
      '几分钟创建第一台 GPU 实例',
    );
    view.unmount();

    fakeServer({ 'GET /api/site': () => ({ status: 500, body: { detail: '服务器错误' } }) });
    const failed = renderRoutes(routes, '/');
    await screen.findByTestId('hero-market-link');
    await waitFor(() => expect(failed.queryClient.getQueryState(siteKeys.info())?.status).toBe('error'));
    expect(screen.queryByTestId('promo-banner')).toBeNull();
    expect(screen.queryByText(/体验金/)).toBeNull();
  });

  it('does not show the new-user banner to a signed-in user', async () => {
    setSession('tok', { username: 'alice', nickname: '小爱', isAdmin: false });
    const view = await renderHome();
    await siteAnswered(view);
    expect(screen.queryByTestId('promo-banner')).toBeNull();
    expect(screen.getByTestId('user-menu').textContent).toContain('你好，小爱');
  });
});

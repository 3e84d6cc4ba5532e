import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { REDIRECT_KEY, setSession } from '../../lib/auth';
import { fakeServer, renderRoutes } from '../../test/render';
import { cardNeedsLogin, PRODUCT_CARDS } from '../navigation';
import { routes } from '../router';

/** Waits for the page to settle (its heading), then opens the side menu. */
async function openDrawer() {
  await screen.findByRole('heading', { level: 1 });
  fireEvent.click(screen.getByTestId('product-drawer-button'));
  return screen.findByRole('dialog', { name: '全部产品' });
}

describe('header product menus', () => {
  it('four expandable product menus and the documentation link', async () => {
    fakeServer({});
    renderRoutes(routes, '/about');
    await screen.findByRole('heading', { level: 1 });
    const nav = screen.getByRole('navigation', { name: '产品导航' });
    const buttons = within(nav).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual([
      '应用市场',
      '轻量实例',
      '裸金属GPU',
      '私有云',
    ]);
    expect(within(nav).getByRole('link', { name: '文档' }).getAttribute('href')).toBe('/docs');

    const bareMetal = screen.getByTestId('nav-bare-metal');
    expect(bareMetal.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(bareMetal);
    expect(bareMetal.getAttribute('aria-expanded')).toBe('true');
    const menu = screen.getByRole('menu', { name: '裸金属GPU' });
    expect(
      within(menu)
        .getByRole('menuitem', { name: /产品介绍/ })
        .getAttribute('href'),
    ).toBe('/gpu-servers');
  });

  it('works from the keyboard: ↓ opens on the first item, arrows move, Escape closes and refocuses', async () => {
    fakeServer({});
    renderRoutes(routes, '/about');
    await screen.findByRole('heading', { level: 1 });
    const button = screen.getByTestId('nav-apps');
    button.focus();
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    const menu = screen.getByRole('menu', { name: '应用市场' });
    const items = within(menu).getAllByRole('menuitem');
    await waitFor(() => expect(document.activeElement).toBe(items[0]));
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement).toBe(items[1]));
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    await waitFor(() => expect(document.activeElement).toBe(items.at(-1)));
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('choosing an item navigates and closes the menu', async () => {
    fakeServer({});
    const { router } = renderRoutes(routes, '/about');
    await screen.findByRole('heading', { level: 1 });
    fireEvent.click(screen.getByTestId('nav-private-cloud'));
    fireEvent.click(screen.getByRole('menuitem', { name: /方案介绍/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/private-cloud'));
    expect(screen.queryByRole('menu')).toBeNull();
  });
});

describe('product side menu', () => {
  it('lists every product as a card, most marked 开发中', async () => {
    fakeServer({});
    renderRoutes(routes, '/about');
    const drawer = await openDrawer();
    const titles = PRODUCT_CARDS.map(
      (card) =>
        within(drawer).getByTestId(`product-card-${card.key}`).querySelector('.product-card-title')
          ?.firstChild?.textContent,
    );
    expect(titles).toEqual(['应用市场', '轻量实例', '裸金属GPU', '私有云', '存储', '账单记录', '探索']);
    const marked = PRODUCT_CARDS.filter((card) =>
      within(drawer).getByTestId(`product-card-${card.key}`).textContent?.includes('开发中'),
    );
    expect(marked.length).toBeGreaterThan(PRODUCT_CARDS.length / 2);
    expect(within(drawer).getByTestId('product-card-explore').getAttribute('aria-disabled')).toBe('true');
  });

  it('signed out, the light-instance card stores the route and goes to /login?redirect=', async () => {
    fakeServer({});
    const { router } = renderRoutes(routes, '/about');
    const drawer = await openDrawer();
    fireEvent.click(within(drawer).getByTestId('product-card-market'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?redirect=%2Fmarket');
    expect(window.sessionStorage.getItem(REDIRECT_KEY)).toBe('/market');
    expect(screen.queryByRole('dialog', { name: '全部产品' })).toBeNull();
  });

  it('public cards go straight to their page, signed in or not', async () => {
    fakeServer({});
    const { router } = renderRoutes(routes, '/about');
    fireEvent.click(within(await openDrawer()).getByTestId('product-card-gpu-servers'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/gpu-servers'));
    expect(window.sessionStorage.getItem(REDIRECT_KEY)).toBeNull();
  });

  it('signed in, the light-instance card opens the market', async () => {
    fakeServer({
      'GET /api/cloud-products': () => ({ body: { items: [], total: 0 } }),
      'GET /api/cloud-products/filters': () => ({ body: { regions: [], gpu_types: [] } }),
    });
    setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
    const { router } = renderRoutes(routes, '/about');
    fireEvent.click(within(await openDrawer()).getByTestId('product-card-market'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/market'));
  });

  it('Escape closes the side menu and gives focus back to its button', async () => {
    fakeServer({});
    renderRoutes(routes, '/about');
    const drawer = await openDrawer();
    await waitFor(() => expect(drawer.contains(document.activeElement)).toBe(true));
    fireEvent.keyDown(drawer, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('product-drawer-button'));
  });
});

describe('cardNeedsLogin', () => {
  it('is the spec rule: /market and anything under /containers (and the user centre)', () => {
    expect(cardNeedsLogin('/market')).toBe(true);
    expect(cardNeedsLogin('/containers')).toBe(true);
    expect(cardNeedsLogin('/containers/storage')).toBe(true);
    expect(cardNeedsLogin('/user/storage')).toBe(true);
    expect(cardNeedsLogin('/apps')).toBe(false);
    expect(cardNeedsLogin('/gpu-servers')).toBe(false);
    expect(cardNeedsLogin('/private-cloud')).toBe(false);
    expect(cardNeedsLogin('/marketing')).toBe(false);
  });
});

import type { ImageCompare } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes, waitForButton } from '../../../test/render';
import { anImageDetail } from '../test-fixtures';

beforeEach(() => {
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});

describe('/user/images/:id 镜像详情', { timeout: 60_000 }, () => {
  it('shows the facts, the layers with the added ones marked, and searchable package lists', async () => {
    fakeServer({ 'GET /api/images/1': () => ({ body: anImageDetail() }) });
    renderRoutes(routes, '/user/images/1');
    expect(await screen.findByText('镜像详情 - my-env:latest')).toBeTruthy();
    for (const fact of ['Ubuntu 22.04.4 LTS', '3.10.12', '12.1.1', '8.9.2', `sha256:${'b'.repeat(64)}`]) {
      expect(screen.getByText(fact)).toBeTruthy();
    }
    expect(screen.getByText(`sha256:${'a'.repeat(64)}`)).toBeTruthy();
    const layers = screen.getByLabelText('镜像层');
    expect(within(layers).getAllByText('本次新增')).toHaveLength(1);
    expect(within(layers).getByText('120 MB')).toBeTruthy();
    expect(within(layers).getByText('2.00 GB')).toBeTruthy();

    const pip = screen.getByLabelText('pip 软件包');
    expect(within(pip).getByText('numpy')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('搜索pip 软件包'), { target: { value: 'TOR' } });
    await waitFor(() => expect(within(pip).queryByText('numpy')).toBeNull());
    expect(within(pip).getByText('torch')).toBeTruthy();
    expect(screen.getByText('共 3 个，匹配 1 个')).toBeTruthy();

    // conda is absent from this image.
    fireEvent.click(screen.getByText('conda（0）'));
    expect(await screen.findByText('该镜像没有conda 软件包')).toBeTruthy();
    fireEvent.click(screen.getByText('新增系统软件包（1）'));
    expect(within(await screen.findByLabelText('新增系统软件包')).getByText('htop')).toBeTruthy();
  });

  it('downloads the generated Dockerfile through the API client', async () => {
    const createObjectURL = vi.fn(() => 'blob:dockerfile');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const server = fakeServer({
      'GET /api/images/1': () => ({ body: anImageDetail() }),
      'GET /api/images/1/dockerfile': () => ({ body: 'FROM pytorch@sha256:bbb' }),
    });
    renderRoutes(routes, '/user/images/1');
    await screen.findByText('镜像详情 - my-env:latest');
    fireEvent.click(await waitForButton(document.body, '下载 Dockerfile'));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(createObjectURL).toHaveBeenCalled();
    const request = server.requests.find((r) => r.path === '/api/images/1/dockerfile');
    expect(request?.headers.Authorization).toBe('Bearer tok');
    click.mockRestore();
  });

  it('says why an image failed, and offers neither download nor a new instance', async () => {
    fakeServer({
      'GET /api/images/4': () => ({
        body: anImageDetail({
          id: 4,
          status: 'failed',
          error: '保存中断，请重试',
          contents: null,
          digest: null,
        }),
      }),
    });
    renderRoutes(routes, '/user/images/4');
    expect(await screen.findByText('保存中断，请重试', { selector: '.ant-alert-description' })).toBeTruthy();
    expect(getButton(document.body, '下载 Dockerfile').disabled).toBe(true);
    expect(getButton(document.body, '创建实例').disabled).toBe(true);
  });

  it('an unknown image shows the server’s 镜像不存在', async () => {
    fakeServer({ 'GET /api/images/9': () => ({ status: 404, body: { detail: '镜像不存在' } }) });
    renderRoutes(routes, '/user/images/9');
    expect(await screen.findByText('镜像不存在')).toBeTruthy();
  });
});

const comparison: ImageCompare = {
  a: { id: 1, name: 'my-env', tag: 'v1' },
  b: { id: 2, name: 'my-env', tag: 'v2' },
  facts: [{ what: 'python', a: '3.10.12', b: '3.11.4' }],
  pip: {
    added: [{ name: 'transformers', version: '4.40.0' }],
    removed: [{ name: 'requests', version: '2.31.0' }],
    changed: [{ name: 'torch', from: '2.1.0', to: '2.3.1' }],
  },
  conda: null,
  apt: { added: [], removed: [], changed: [] },
};

describe('/user/images/compare 镜像对比', { timeout: 60_000 }, () => {
  it('lists what b added, removed and changed against a, per list', async () => {
    const server = fakeServer({ 'GET /api/images/compare': () => ({ body: comparison }) });
    renderRoutes(routes, '/user/images/compare?a=1&b=2');
    expect(
      await screen.findByText('以 my-env:v1 为基准，列出 my-env:v2 新增、移除和变更的内容'),
    ).toBeTruthy();
    expect(screen.getByText('3.10.12 → 3.11.4')).toBeTruthy();
    const pip = screen.getByTestId('diff-pip 软件包');
    expect(within(pip).getByText('pip 软件包（3 处不同）')).toBeTruthy();
    expect(within(pip).getByText('新增（1）')).toBeTruthy();
    expect(within(pip).getByText('transformers 4.40.0')).toBeTruthy();
    expect(within(pip).getByText('移除（1）')).toBeTruthy();
    expect(within(pip).getByText('requests 2.31.0')).toBeTruthy();
    expect(within(pip).getByText('版本变更（1）')).toBeTruthy();
    expect(within(pip).getByText('torch 2.1.0 → 2.3.1')).toBeTruthy();
    expect(
      within(screen.getByTestId('diff-conda 软件包')).getByText('其中一个镜像没有conda 软件包，无法对比'),
    ).toBeTruthy();
    expect(within(screen.getByTestId('diff-系统软件包')).getByText('两个镜像的系统软件包相同')).toBeTruthy();
    expect(server.requests.find((r) => r.path === '/api/images/compare')?.search.toString()).toBe('a=1&b=2');
  });

  it('without two images asks to pick them in 我的镜像', async () => {
    const server = fakeServer({});
    renderRoutes(routes, '/user/images/compare?a=1');
    expect(await screen.findByText('请在「我的镜像」中勾选两个镜像进行对比')).toBeTruthy();
    expect(server.requests.some((r) => r.path === '/api/images/compare')).toBe(false);
  });
});

import type { UserImage } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { dialog, fakeServer, getButton, renderRoutes, waitForButton } from '../../../test/render';
import { runningContainer } from '../../containers/test-fixtures';
import { anImage, imageList } from '../test-fixtures';

beforeEach(() => {
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});

const images: UserImage[] = [
  anImage({ id: 1, name: 'my-env', tag: 'v1', description: '训练环境' }),
  anImage({ id: 2, name: 'my-env', tag: 'v2', size_bytes: 1536 * 1024 ** 2, source_container: null }),
  anImage({ id: 3, name: 'wip', status: 'saving', progress: 42, size_bytes: 0, digest: null }),
  anImage({ id: 4, name: 'broken', status: 'failed', progress: 20, error: '推送镜像失败：磁盘已满' }),
];

describe('/user/images 我的镜像', { timeout: 60_000 }, () => {
  it('shows the quota against use and each image with its size, source and status', async () => {
    fakeServer({ 'GET /api/images/mine': () => ({ body: imageList(images, { count: 4 }) }) });
    renderRoutes(routes, '/user/images');
    expect((await screen.findByTestId('image-count-quota')).textContent).toBe('4 / 10 个');
    expect(screen.getByTestId('image-bytes-quota').textContent).toBe('5.00 GB / 50 GB');
    const first = await screen.findByTestId('image-row-1');
    expect(within(first).getByText('v1')).toBeTruthy();
    expect(within(first).getByText('3.00 GB')).toBeTruthy();
    expect(within(first).getByText('train-box')).toBeTruthy();
    expect(within(first).getByText('pytorch:2.1-cuda12.1')).toBeTruthy();
    expect(within(first).getByText('可用')).toBeTruthy();
    expect(within(screen.getByTestId('image-row-2')).getByText('1.50 GB')).toBeTruthy();
    expect(within(screen.getByTestId('image-row-2')).getByText('已释放')).toBeTruthy();
    expect(within(screen.getByTestId('image-row-3')).getByText('保存中 42%')).toBeTruthy();
    expect(within(screen.getByTestId('image-row-4')).getByText('推送镜像失败：磁盘已满')).toBeTruthy();
    // An image being saved cannot be started or compared yet.
    expect(getButton(screen.getByTestId('image-row-3'), '创建实例').disabled).toBe(true);
  });

  it('reads the list again every second while an image is being saved, until it is ready', async () => {
    let calls = 0;
    fakeServer({
      'GET /api/images/mine': () => {
        calls++;
        const progress = Math.min(100, calls * 40);
        const wip = anImage({
          id: 3,
          name: 'wip',
          status: progress < 100 ? 'saving' : 'ready',
          progress,
        });
        return { body: imageList([wip]) };
      },
    });
    renderRoutes(routes, '/user/images');
    expect(await screen.findByText('保存中 40%')).toBeTruthy();
    expect(await screen.findByText('保存中 80%', {}, { timeout: 5000 })).toBeTruthy();
    const row = screen.getByTestId('image-row-3');
    await waitFor(() => expect(within(row).getByText('可用')).toBeTruthy(), { timeout: 5000 });
    const settled = calls;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(calls).toBe(settled);
  });

  it('deletes after confirmation, and shows why the server refuses (in use)', async () => {
    const server = fakeServer({
      'GET /api/images/mine': () => ({ body: imageList(images) }),
      'DELETE /api/images/1': () => ({
        status: 409,
        body: { detail: '镜像正在被容器 box-7 使用，请先释放该容器', code: 'IMAGE_IN_USE' },
      }),
      'DELETE /api/images/2': () => ({ body: { ok: true } }),
    });
    renderRoutes(routes, '/user/images');
    fireEvent.click(getButton(await screen.findByTestId('image-row-1'), '删除'));
    expect(await screen.findByText('确定要删除镜像 my-env:v1 吗？删除后无法恢复。')).toBeTruthy();
    fireEvent.click(await waitForButton(document.body, '确定'));
    expect(await screen.findByText('删除镜像失败：镜像正在被容器 box-7 使用，请先释放该容器')).toBeTruthy();

    fireEvent.click(getButton(screen.getByTestId('image-row-2'), '删除'));
    await screen.findByText('确定要删除镜像 my-env:v2 吗？删除后无法恢复。');
    fireEvent.click(await waitForButton(document.body, '确定'));
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(server.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      '/api/images/1',
      '/api/images/2',
    ]);
  });

  it('renames with the server’s checks, and sends name, tag and description', async () => {
    const server = fakeServer({
      'GET /api/images/mine': () => ({ body: imageList(images) }),
      'PATCH /api/images/1': () => ({ body: anImage({ id: 1, name: 'torch-env' }) }),
    });
    renderRoutes(routes, '/user/images');
    fireEvent.click(getButton(await screen.findByTestId('image-row-1'), '重命名'));
    await screen.findByText('重命名 - my-env:v1');
    const form = dialog();
    const name = within(form).getByLabelText('镜像名称') as HTMLInputElement;
    expect(name.value).toBe('my-env');
    fireEvent.change(name, { target: { value: 'My Env' } });
    fireEvent.click(getButton(form, '确定'));
    expect(
      await within(form).findByText('镜像名称只能包含小写字母、数字、点、下划线和短横线，且以字母或数字开头'),
    ).toBeTruthy();
    expect(server.requests.some((r) => r.method === 'PATCH')).toBe(false);
    fireEvent.change(name, { target: { value: 'torch-env' } });
    fireEvent.click(getButton(form, '确定'));
    expect(await screen.findByText('修改成功')).toBeTruthy();
    expect(server.requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      name: 'torch-env',
      tag: 'v1',
      description: '训练环境',
    });
  });

  it('compares two selected ready images, and 创建实例 opens the market with the image', async () => {
    fakeServer({ 'GET /api/images/mine': () => ({ body: imageList(images) }) });
    const { router } = renderRoutes(routes, '/user/images');
    await screen.findByTestId('image-row-1');
    expect(getButton(document.body, '对比').disabled).toBe(true);
    expect((screen.getByLabelText('选择 wip:latest') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('选择 my-env:v1'));
    expect(getButton(document.body, '对比').disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('选择 my-env:v2'));
    await waitFor(() => expect(getButton(document.body, '对比').disabled).toBe(false));
    fireEvent.click(getButton(document.body, '对比'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/images/compare'));
    expect(router.state.location.search).toBe('?a=1&b=2');

    await router.navigate('/user/images');
    fireEvent.click(getButton(await screen.findByTestId('image-row-2'), '创建实例'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/market'));
    expect(router.state.location.search).toBe('?imageType=custom&image=2');
  });

  it('a save sent to the background (后台保存) shows 保存中 n% with a bar in 我的镜像, moving until it is ready', async () => {
    let saving = false;
    let reads = 0;
    fakeServer({
      'GET /api/containers': () => ({ body: { items: [runningContainer], total: 1 } }),
      'POST /api/containers/c-run/save-image': () => {
        saving = true;
        return { status: 202, body: { image_id: 5 } };
      },
      'GET /api/images/mine': () => {
        if (!saving) return { body: imageList([]) };
        reads++;
        // 42% until the page of 我的镜像 has read it a few times, then 80%, then ready.
        const progress = reads < 6 ? 42 : reads < 8 ? 80 : 100;
        return {
          body: imageList([
            anImage({
              id: 5,
              name: 'bg-env',
              tag: 'v1',
              status: progress < 100 ? 'saving' : 'ready',
              progress,
            }),
          ]),
        };
      },
    });
    const { router } = renderRoutes(routes, '/user/containers');
    fireEvent.click(getButton(await screen.findByTestId('container-row-c-run'), '更多'));
    fireEvent.click((await screen.findAllByText('保存镜像')).at(-1) as HTMLElement);
    await screen.findByText(/^保存镜像 - /);
    fireEvent.change(within(dialog()).getByLabelText('镜像名称'), { target: { value: 'bg-env' } });
    fireEvent.change(within(dialog()).getByLabelText('标签'), { target: { value: 'v1' } });
    fireEvent.click(getButton(dialog(), '保存'));
    await screen.findByTestId('save-image-progress');
    fireEvent.click(getButton(dialog(), '后台保存'));
    await waitFor(() => expect(screen.queryByTestId('save-image-progress')).toBeNull());

    await router.navigate('/user/images');
    const row = await screen.findByTestId('image-row-5');
    expect(within(row).getByText('保存中 42%')).toBeTruthy();
    expect(within(row).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('42');
    await waitFor(() => expect(within(row).getByText('保存中 80%')).toBeTruthy(), { timeout: 8000 });
    expect(within(row).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('80');
    await waitFor(() => expect(within(row).getByText('可用')).toBeTruthy(), { timeout: 8000 });
    expect(within(row).queryByRole('progressbar')).toBeNull();
  });
});

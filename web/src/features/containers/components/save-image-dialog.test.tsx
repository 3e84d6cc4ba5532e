import type { Container } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { dialog, fakeServer, getButton, renderRoutes } from '../../../test/render';
import { anImage, imageList } from '../../images/test-fixtures';
import { runningContainer, stoppedContainer } from '../test-fixtures';

const list =
  (items: Container[] = [runningContainer, stoppedContainer]) =>
  () => ({ body: { items, total: items.length } });

beforeEach(() => {
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});

async function openSave(rowId: string) {
  const row = await screen.findByTestId(`container-row-${rowId}`);
  fireEvent.click(getButton(row, '更多'));
  const items = await screen.findAllByText('保存镜像');
  fireEvent.click(items.at(-1) as HTMLElement);
  await screen.findByText(/^保存镜像 - /);
  return dialog();
}

const field = (scope: HTMLElement, label: string) => within(scope).getByLabelText(label) as HTMLInputElement;

describe('保存镜像', { timeout: 120_000 }, () => {
  it('checks name, tag and description with the server’s words before sending anything', async () => {
    const server = fakeServer({ 'GET /api/containers': list() });
    renderRoutes(routes, '/user/containers');
    const form = await openSave('c-run');
    expect(within(form).getByText(/保存时容器会短暂暂停/)).toBeTruthy();
    expect(field(form, '标签').value).toBe('latest');

    fireEvent.click(getButton(form, '保存'));
    expect(await within(form).findByText('请输入镜像名称')).toBeTruthy();

    fireEvent.change(field(form, '镜像名称'), { target: { value: '-Env' } });
    expect(
      await within(form).findByText('镜像名称只能包含小写字母、数字、点、下划线和短横线，且以字母或数字开头'),
    ).toBeTruthy();
    fireEvent.change(field(form, '镜像名称'), { target: { value: 'a'.repeat(33) } });
    expect(await within(form).findByText('镜像名称不能超过32个字符')).toBeTruthy();
    fireEvent.change(field(form, '镜像名称'), { target: { value: 'my-env' } });

    fireEvent.change(field(form, '标签'), { target: { value: '.v1' } });
    expect(
      await within(form).findByText(
        '标签只能包含字母、数字、点、下划线和短横线，且不能以点或短横线开头，最多64个字符',
      ),
    ).toBeTruthy();
    fireEvent.change(field(form, '标签'), { target: { value: 'v1' } });

    fireEvent.change(field(form, '描述'), { target: { value: '长'.repeat(201) } });
    expect(await within(form).findByText('描述不能超过200个字符')).toBeTruthy();
    fireEvent.click(getButton(form, '保存'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('saves: sends the form, shows 保存中 n% while the server saves, then the result', async () => {
    let polls = 0;
    const server = fakeServer({
      'GET /api/containers': list(),
      'POST /api/containers/c-run/save-image': () => ({ status: 202, body: { image_id: 5 } }),
      'GET /api/images/mine': () => {
        polls++;
        const image =
          polls < 3
            ? anImage({
                id: 5,
                name: 'my-env',
                tag: 'v1',
                status: 'saving',
                progress: polls * 30,
                size_bytes: 0,
              })
            : anImage({ id: 5, name: 'my-env', tag: 'v1', size_bytes: 2 * 1024 ** 3 });
        return { body: imageList([image]) };
      },
    });
    const { router } = renderRoutes(routes, '/user/containers');
    const form = await openSave('c-run');
    fireEvent.change(field(form, '镜像名称'), { target: { value: ' my-env ' } });
    fireEvent.change(field(form, '标签'), { target: { value: 'v1' } });
    fireEvent.change(field(form, '描述'), { target: { value: '装好了 transformers' } });
    fireEvent.click(getButton(form, '保存'));

    const progress = await screen.findByTestId('save-image-progress');
    await waitFor(() => expect(progress.textContent).toContain('保存中 30%'));
    await waitFor(
      () => expect(screen.getByTestId('save-image-progress').textContent).toContain('保存中 60%'),
      {
        timeout: 5000,
      },
    );
    expect(await screen.findByText('镜像保存成功', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('my-env:v1，大小 2.00 GB')).toBeTruthy();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'my-env',
      tag: 'v1',
      description: '装好了 transformers',
    });
    fireEvent.click(getButton(document.body, '查看镜像'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/images/5'));
  });

  it('a failed save says why; a refused one (quota) shows the server’s detail', async () => {
    fakeServer({
      'GET /api/containers': list(),
      'POST /api/containers/c-run/save-image': () => ({ status: 202, body: { image_id: 6 } }),
      'POST /api/containers/c-stop/save-image': () => ({
        status: 400,
        body: { detail: '镜像数量已达上限（10个）' },
      }),
      'GET /api/images/mine': () => ({
        body: imageList([anImage({ id: 6, status: 'failed', error: '推送镜像失败：磁盘已满' })]),
      }),
    });
    renderRoutes(routes, '/user/containers');
    let form = await openSave('c-run');
    fireEvent.change(field(form, '镜像名称'), { target: { value: 'env' } });
    fireEvent.click(getButton(form, '保存'));
    expect(await screen.findByText('镜像保存失败')).toBeTruthy();
    expect(screen.getByText('推送镜像失败：磁盘已满')).toBeTruthy();
    expect(screen.getByText('容器未受影响，保持保存前的状态。')).toBeTruthy();
    fireEvent.click(getButton(document.body, '关闭'));

    form = await openSave('c-stop');
    // A stopped container is not paused: no such note.
    expect(within(form).queryByText(/保存时容器会短暂暂停/)).toBeNull();
    fireEvent.change(field(form, '镜像名称'), { target: { value: 'env' } });
    fireEvent.click(getButton(form, '保存'));
    expect(await screen.findByText('保存镜像失败：镜像数量已达上限（10个）')).toBeTruthy();
  });
});

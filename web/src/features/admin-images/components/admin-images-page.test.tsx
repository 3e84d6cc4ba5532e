import type { AdminUserImage } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { dialog, fakeServer, getButton, renderRoutes, selectInput } from '../../../test/render';
import { anImage } from '../../images/test-fixtures';
import { usageByUser } from '../types';

beforeEach(() => {
  setSession('tok', { username: 'root', nickname: '', isAdmin: true });
});

const adminImage = (over: Partial<AdminUserImage>): AdminUserImage => ({
  ...anImage(),
  user: { id: 2, username: 'alice' },
  published: null,
  ...over,
});

const list: AdminUserImage[] = [
  adminImage({ id: 1, name: 'my-env', tag: 'v1', size_bytes: 3 * 1024 ** 3 }),
  adminImage({
    id: 2,
    name: 'bert',
    size_bytes: 1024 ** 3,
    published: { framework: 'NLP', version: 'bert-1' },
  }),
  adminImage({ id: 3, name: 'cv', user: { id: 3, username: 'bob' }, size_bytes: 512 * 1024 ** 2 }),
];

const server = () =>
  fakeServer({
    'GET /api/admin/images/saved': () => ({ body: list }),
    'GET /api/frameworks': () => ({ body: [{ id: 1, name: 'PyTorch' }] }),
    'POST /api/admin/images/1/publish': () => ({ body: { ok: true } }),
    'PUT /api/admin/users/3/image-quota': () => ({ body: { ok: true } }),
  });

describe('管理后台 → 用户镜像', { timeout: 120_000 }, () => {
  it('lists every user’s images with owner, size and what is published', async () => {
    server();
    renderRoutes(routes, '/admin/user-images');
    const row = await screen.findByTestId('admin-image-1');
    expect(within(row).getByText('alice')).toBeTruthy();
    expect(within(row).getByText('3.00 GB')).toBeTruthy();
    expect(within(row).getByText('未发布')).toBeTruthy();
    expect(within(screen.getByTestId('admin-image-2')).getByText('NLP bert-1')).toBeTruthy();
    expect(getButton(screen.getByTestId('admin-image-2'), '发布到公共镜像').disabled).toBe(true);
    expect(screen.getByText('共 3 个镜像，2 个用户，合计 4.50 GB')).toBeTruthy();
  });

  it('publishes an image as a framework version', async () => {
    const { requests } = server();
    renderRoutes(routes, '/admin/user-images');
    fireEvent.click(getButton(await screen.findByTestId('admin-image-1'), '发布到公共镜像'));
    await screen.findByText('发布到公共镜像 - my-env:v1');
    const form = dialog();
    fireEvent.click(getButton(form, '发布'));
    expect(await within(form).findByText('请选择框架')).toBeTruthy();
    fireEvent.change(selectInput(form, '框架'), { target: { value: 'PyTorch' } });
    fireEvent.change(within(form).getByLabelText('版本'), { target: { value: ' 2.5-custom ' } });
    fireEvent.click(getButton(form, '发布'));
    expect(await screen.findByText('发布成功')).toBeTruthy();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      framework: 'PyTorch',
      version: '2.5-custom',
    });
  });

  it('sets a user’s quota (count and GB), refusing values out of range', async () => {
    const { requests } = server();
    renderRoutes(routes, '/admin/user-images');
    fireEvent.click(getButton(await screen.findByTestId('admin-image-3'), '配额'));
    await screen.findByText('镜像配额 - bob');
    const form = dialog();
    expect(within(form).getByText(/当前已用：1 个，512 MB/)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('镜像数量上限'), { target: { value: '' } });
    fireEvent.click(getButton(form, '保存'));
    expect(await within(form).findByText('镜像数量上限为 0-1000')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('镜像数量上限'), { target: { value: '20' } });
    fireEvent.change(within(form).getByLabelText('存储上限'), { target: { value: '100' } });
    fireEvent.click(getButton(form, '保存'));
    expect(await screen.findByText('配额已更新')).toBeTruthy();
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ max_count: 20, max_gb: 100 });
  });
});

describe('usage by user', () => {
  it('counts each owner’s images and bytes', () => {
    const usage = usageByUser(list);
    expect(usage.get(2)).toEqual({ count: 2, bytes: 4 * 1024 ** 3 });
    expect(usage.get(3)).toEqual({ count: 1, bytes: 512 * 1024 ** 2 });
  });
});

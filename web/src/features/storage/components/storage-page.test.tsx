import type { StorageInfo, Volume } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes, waitForButton } from '../../../test/render';

beforeEach(() => {
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});

const volume = (over: Partial<Volume>): Volume => ({
  id: 1,
  name: 'alice-data01',
  path: '/root/data',
  size: 3 * 1024 ** 3,
  node_id: 1,
  agent: { server_hostname: 'gpu1.example.com', name: 'gpu1', region: '华东' },
  status: 'ready',
  delete_progress: null,
  delete_error: null,
  containers: [],
  created_at: '2026-11-20T08:00:00.000Z',
  ...over,
});

const info = (volumes: Volume[]): { body: StorageInfo } => ({
  body: {
    used_storage: 12.5,
    quota_storage: 50,
    used_bytes: 12.5 * 1024 ** 3,
    quota_bytes: 50 * 1024 ** 3,
    volumes,
  },
});

const storage = (volumes: Volume[]) => ({
  'GET /api/storage/info': () => info(volumes),
  'GET /api/storage/nodes': () => ({ body: [{ id: 1, name: 'gpu1', region: '华东' }] }),
});

describe('/user/storage', () => {
  it('shows usage against the 50 GB quota and each volume with its node and containers', async () => {
    fakeServer(
      storage([
        volume({}),
        volume({
          id: 2,
          name: 'alice-ckpt',
          containers: [
            { id: 'c1', container_id: 'c1', name: 'train', mount_path: '/ckpt', pending: false },
            { id: 'c2', container_id: 'c2', name: 'eval', mount_path: '/ckpt', pending: true },
          ],
        }),
      ]),
    );
    renderRoutes(routes, '/user/storage');
    expect(await screen.findByText('12.50 GB / 50 GB')).toBeTruthy();
    const row = await screen.findByTestId('volume-alice-ckpt');
    expect(within(row).getByText('train')).toBeTruthy();
    expect(within(row).getByText('重启生效')).toBeTruthy();
    expect(within(screen.getByTestId('volume-alice-data01')).getByText('3.00 GB')).toBeTruthy();
    expect(within(screen.getByTestId('volume-alice-data01')).getByText('未挂载')).toBeTruthy();
  });

  it('creates a volume: name and path required, then the server gets them', async () => {
    const server = fakeServer({
      ...storage([]),
      'POST /api/storage/volumes': () => ({ status: 201, body: volume({ id: 9, name: 'alice-sets' }) }),
    });
    renderRoutes(routes, '/user/storage');
    fireEvent.click(await waitForButton(document.body, '新建存储卷'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('存储卷路径'), { target: { value: '' } });
    fireEvent.click(getButton(dialog, '创建'));
    expect((await screen.findAllByText('请输入存储卷名称和路径')).length).toBeGreaterThan(0);
    fireEvent.change(within(dialog).getByLabelText('存储卷名称'), { target: { value: 'my sets' } });
    fireEvent.change(within(dialog).getByLabelText('存储卷路径'), { target: { value: '/data/sets' } });
    expect(await within(dialog).findByText('存储卷名称只能包含字母、数字、下划线和横线')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('存储卷名称'), { target: { value: 'sets' } });
    fireEvent.click(getButton(dialog, '创建'));
    await screen.findByText('创建成功');
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'sets',
      path: '/data/sets',
      node_id: 1,
    });
  });

  it('renames: starts from the part after the last dash, confirm disabled while invalid or taken', async () => {
    const server = fakeServer({
      ...storage([volume({}), volume({ id: 2, name: 'alice-other' })]),
      'PUT /api/storage/volumes/1/rename': () => ({ body: volume({ name: 'alice-data02' }) }),
    });
    renderRoutes(routes, '/user/storage');
    const row = await screen.findByTestId('volume-alice-data01');
    fireEvent.click(getButton(row, '重命名'));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText('新名称') as HTMLInputElement;
    expect(input.value).toBe('data01');
    fireEvent.change(input, { target: { value: 'bad name' } });
    expect(await within(dialog).findByText('存储卷名称只能包含字母、数字、下划线和横线')).toBeTruthy();
    expect(getButton(dialog, '确定').disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'other' } });
    expect(await within(dialog).findByText('存储卷名称已存在')).toBeTruthy();
    expect(getButton(dialog, '确定').disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'data02' } });
    await waitFor(() => expect(getButton(dialog, '确定').disabled).toBe(false));
    fireEvent.click(getButton(dialog, '确定'));
    await screen.findByText('修改成功');
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({ new_name: 'data02' });
  });

  it('refuses to delete a volume in use; otherwise asks with the spec’s words and deletes', async () => {
    const server = fakeServer({
      ...storage([
        volume({}),
        volume({
          id: 2,
          name: 'alice-busy',
          containers: [{ id: 'c1', container_id: 'c1', name: 'train', mount_path: '/b', pending: false }],
        }),
      ]),
      'DELETE /api/storage/volumes/1': () => ({
        status: 202,
        body: volume({ status: 'deleting', delete_progress: 0 }),
      }),
    });
    renderRoutes(routes, '/user/storage');
    fireEvent.click(getButton(await screen.findByTestId('volume-alice-busy'), '删除'));
    await screen.findByText('该存储卷已被容器使用，无法删除');
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);

    fireEvent.click(getButton(screen.getByTestId('volume-alice-data01'), '删除'));
    await screen.findByText('确定要删除这个存储卷吗？相关的数据将会丢失。');
    fireEvent.click(await waitForButton(document.body, '确定'));
    await screen.findByText('已开始删除，完成后存储卷将从列表中移除');
    expect(server.requests.find((r) => r.method === 'DELETE')?.path).toBe('/api/storage/volumes/1');
  });

  it('shows 删除中 n% with a bar from the 202 on, reads again every second, and drops the row once gone', async () => {
    let deleted = false;
    let reads = 0;
    const server = fakeServer({
      'GET /api/storage/info': () => {
        if (!deleted) return info([volume({})]);
        reads++;
        // 35%, then 80%, then gone.
        if (reads === 1) return info([volume({ status: 'deleting', delete_progress: 35 })]);
        if (reads === 2) return info([volume({ status: 'deleting', delete_progress: 80 })]);
        return info([]);
      },
      'GET /api/storage/nodes': () => ({ body: [] }),
      'DELETE /api/storage/volumes/1': () => {
        deleted = true;
        return { status: 202, body: volume({ status: 'deleting', delete_progress: 0 }) };
      },
    });
    renderRoutes(routes, '/user/storage');
    fireEvent.click(getButton(await screen.findByTestId('volume-alice-data01'), '删除'));
    fireEvent.click(await waitForButton(document.body, '确定'));

    const bar = async (percent: number) => {
      const row = await screen.findByTestId('volume-alice-data01');
      await waitFor(() => expect(within(row).getByText(`删除中 ${percent}%`)).toBeTruthy(), {
        timeout: 4000,
      });
      expect(within(row).getByRole('progressbar').getAttribute('aria-valuenow')).toBe(String(percent));
      // Nothing more to do with it while it goes.
      expect(getButton(row, '删除').disabled).toBe(true);
      expect(getButton(row, '重命名').disabled).toBe(true);
    };
    await bar(35);
    await bar(80);
    await waitFor(() => expect(screen.queryByTestId('volume-alice-data01')).toBeNull(), { timeout: 4000 });
    expect(await screen.findByText('暂无存储卷')).toBeTruthy();
    // Gone: no more reading every second.
    const settled = server.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(server.requests.length).toBe(settled);
  });

  it('a delete the node could not finish leaves the volume 可用 with the reason', async () => {
    fakeServer(
      storage([volume({ delete_error: '存储卷中的 part-1/7.bin 无法删除 (EPERM), 其余数据可能已删除' })]),
    );
    renderRoutes(routes, '/user/storage');
    const row = await screen.findByTestId('volume-alice-data01');
    expect(within(row).getByText('可用')).toBeTruthy();
    expect(
      within(row).getByText('删除失败：存储卷中的 part-1/7.bin 无法删除 (EPERM), 其余数据可能已删除'),
    ).toBeTruthy();
    expect(within(row).queryByRole('progressbar')).toBeNull();
    expect(getButton(row, '删除').disabled).toBe(false);
  });
});

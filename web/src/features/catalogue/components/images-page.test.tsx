import type { AdminFramework, AppImage } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { dialog, fakeServer, getButton, renderRoutes, waitForButton } from '../../../test/render';

// antd screens render slowly in jsdom, more so while other test files run in parallel: wait longer
// than the default for them (this file only; vitest isolates test files).

const pytorch: AdminFramework = {
  id: 1,
  name: 'PyTorch',
  ports: { ssh: 22, jupyter: 8888 },
  sort: 0,
  versions: [
    {
      id: 11,
      framework_id: 1,
      version: '2.5.1-cuda12.4',
      image: 'pytorch/pytorch:2.5.1',
      cuda_version: '12.4',
      system_type: 'ubuntu',
      ports: { ssh: 22, jupyter: 8888 },
      mounts: [],
      extra_driver_capabilities: [],
    },
  ],
};
const image: AppImage = {
  id: 3,
  name: 'PyTorch 2.5.1',
  icon: '',
  description: '训练环境',
  category: 'pytorch',
  created_at: '2025-03-01T08:00:00Z',
  framework_version_id: 11,
  framework: { id: 1, name: 'PyTorch', version: { id: 11, name: '2.5.1-cuda12.4', cuda_version: '12.4' } },
};

beforeEach(() => {
  setSession('t', { username: 'root', nickname: '', isAdmin: true });
});

describe('admin images: frameworks and versions', { timeout: 60_000 }, () => {
  it('creates a framework after checking its name and ports', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/frameworks': () => ({ body: { items: [pytorch], total: 1 } }),
      'POST /api/admin/frameworks': () => ({ status: 201, body: { id: 2, name: 'JAX', ports: {} } }),
    });
    renderRoutes(routes, '/admin/images');
    const row = await screen.findByTestId('framework-row-1');
    expect(within(row).getByText('ssh:22')).toBeTruthy();
    fireEvent.click(getButton(document.body, '新建框架'));
    const modal = dialog();
    fireEvent.click(getButton(modal, '保存'));
    expect(await within(modal).findByText('请输入框架名称')).toBeTruthy();
    fireEvent.change(within(modal).getByLabelText('框架名称'), { target: { value: 'JAX' } });
    fireEvent.change(within(modal).getByLabelText('端口2名称'), { target: { value: 'Jupyter' } });
    expect(await within(modal).findByText('端口名只能包含小写字母、数字、下划线和横线')).toBeTruthy();
    fireEvent.change(within(modal).getByLabelText('端口2名称'), { target: { value: 'jupyter' } });
    fireEvent.click(getButton(modal, '保存'));
    expect(await screen.findByText('框架已创建')).toBeTruthy();
    const created = requests.find((r) => r.method === 'POST' && r.path === '/api/admin/frameworks');
    expect(created?.body).toEqual({ name: 'JAX', ports: { ssh: 22, jupyter: 8888 } });
  });

  it('adds a Windows version with its custom port list; a refused delete shows why', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/frameworks': () => ({ body: { items: [pytorch], total: 1 } }),
      'POST /api/admin/frameworks/1/versions': () => ({ status: 201, body: { id: 12 } }),
      'DELETE /api/admin/framework-versions/11': () => ({
        status: 409,
        body: { detail: '该版本仍有容器在使用', code: 'VERSION_IN_USE' },
      }),
    });
    renderRoutes(routes, '/admin/images');
    fireEvent.click(getButton(await screen.findByTestId('framework-row-1'), '版本管理'));
    expect(await screen.findByText('版本管理 - PyTorch')).toBeTruthy();
    fireEvent.click(await waitForButton(document.body, '新建版本'));
    const modal = dialog();
    fireEvent.change(within(modal).getByLabelText('版本'), { target: { value: 'win10-cuda12.6' } });
    fireEvent.change(within(modal).getByLabelText('镜像地址'), { target: { value: 'Bad Image' } });
    fireEvent.click(within(modal).getByText('Windows'));
    const custom = await within(modal).findByLabelText('自定义端口（custom）');
    fireEvent.change(custom, { target: { value: 'rdp=3389' } });
    fireEvent.click(getButton(modal, '保存'));
    expect(await within(modal).findByText('镜像地址格式不正确')).toBeTruthy();
    expect(await within(modal).findByText('custom 端口格式应为 名称:端口,名称:端口')).toBeTruthy();
    fireEvent.change(within(modal).getByLabelText('镜像地址'), { target: { value: 'gpucloud/win10:12.6' } });
    fireEvent.change(custom, { target: { value: 'rdp:3389,ssh:22' } });
    fireEvent.click(getButton(modal, '保存'));
    expect(await screen.findByText('版本已创建')).toBeTruthy();
    const created = requests.find(
      (r) => r.method === 'POST' && r.path === '/api/admin/frameworks/1/versions',
    );
    expect(created?.body).toEqual({
      version: 'win10-cuda12.6',
      image: 'gpucloud/win10:12.6',
      cuda_version: '',
      system_type: 'windows',
      ports: { ssh: 22, jupyter: 8888, custom: 'rdp:3389,ssh:22' },
      mounts: [],
      extra_driver_capabilities: [],
    });

    fireEvent.click(getButton(await screen.findByTestId('version-row-11'), '删除'));
    fireEvent.click(await waitForButton(document.body, '确定'));
    expect(await screen.findByText('删除失败：该版本仍有容器在使用')).toBeTruthy();
  });
});

describe('admin images: driver capabilities of a version', { timeout: 60_000 }, () => {
  it('editing a version keeps its extra driver capabilities and can add one', async () => {
    const withVideo: AdminFramework = {
      ...pytorch,
      versions: pytorch.versions.map((v) => ({ ...v, extra_driver_capabilities: ['video'] })),
    };
    const { requests } = fakeServer({
      'GET /api/admin/frameworks': () => ({ body: { items: [withVideo], total: 1 } }),
      'PUT /api/admin/framework-versions/11': () => ({ body: { id: 11 } }),
    });
    renderRoutes(routes, '/admin/images');
    fireEvent.click(getButton(await screen.findByTestId('framework-row-1'), '版本管理'));
    const row = await screen.findByTestId('version-row-11');
    expect(within(row).getByText('video')).toBeTruthy();
    fireEvent.click(getButton(row, '编辑'));
    const modal = dialog();
    const video = within(modal).getByLabelText('video（视频编解码，如 ffmpeg）') as HTMLInputElement;
    expect(video.checked).toBe(true);
    fireEvent.click(within(modal).getByLabelText('graphics（OpenGL / Vulkan）'));
    fireEvent.click(getButton(modal, '保存'));
    expect(await screen.findByText('版本已更新')).toBeTruthy();
    const saved = requests.find((r) => r.method === 'PUT' && r.path === '/api/admin/framework-versions/11');
    expect(saved?.body).toMatchObject({ extra_driver_capabilities: ['video', 'graphics'] });
  });
});

describe('admin images: app images', { timeout: 60_000 }, () => {
  it('creates an app image for a framework version', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/frameworks': () => ({ body: { items: [pytorch], total: 1 } }),
      'GET /api/admin/images': () => ({ body: { items: [image], total: 1 } }),
      'POST /api/admin/images': () => ({ status: 201, body: { ...image, id: 4 } }),
    });
    renderRoutes(routes, '/admin/images');
    fireEvent.click(await screen.findByText('应用镜像'));
    expect(await screen.findByTestId('image-row-3')).toBeTruthy();
    fireEvent.click(getButton(document.body, '新建应用镜像'));
    const modal = dialog();
    fireEvent.change(within(modal).getByLabelText('名称'), { target: { value: 'Llama 推理' } });
    fireEvent.change(within(modal).getByLabelText('图标地址'), { target: { value: 'ftp://x' } });
    fireEvent.click(getButton(modal, '保存'));
    expect(await within(modal).findByText('图标地址须以 http://、https:// 或 / 开头')).toBeTruthy();
    expect(
      await within(modal).findByText('请选择框架版本', { selector: '.ant-form-item-explain-error' }),
    ).toBeTruthy();
    fireEvent.change(within(modal).getByLabelText('图标地址'), {
      target: { value: 'https://cdn.example/l.png' },
    });
    fireEvent.mouseDown(within(modal).getByLabelText('分类'));
    fireEvent.click(await screen.findByTitle('自然语言处理'));
    fireEvent.mouseDown(within(modal).getByLabelText('框架版本'));
    fireEvent.click(await screen.findByTitle('PyTorch 2.5.1-cuda12.4'));
    fireEvent.click(getButton(modal, '保存'));
    expect(await screen.findByText('应用镜像已创建')).toBeTruthy();
    await waitFor(() =>
      expect(requests.some((r) => r.method === 'POST' && r.path === '/api/admin/images')).toBe(true),
    );
    const created = requests.find((r) => r.method === 'POST' && r.path === '/api/admin/images');
    expect(created?.body).toEqual({
      name: 'Llama 推理',
      icon: 'https://cdn.example/l.png',
      description: '',
      category: 'nlp',
      framework_version_id: 11,
    });
  });
});

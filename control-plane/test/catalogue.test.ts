import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { appImageReply } from '../src/modules/catalogue/contract.js';
import { adminProductReply, cloudProductListReply } from '../src/modules/cloud-products/contract.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { expectServed } from './contract.js';
import { ADMIN, ApiClient, startTestControlPlane } from './harness.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture } from './purchase.js';

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
let admin: ApiClient;

beforeAll(async () => {
  cp = await startTestControlPlane();
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'node-cat');
  admin = new ApiClient(cp.url);
  await admin.login(ADMIN.username, ADMIN.password);
});

afterAll(async () => {
  await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
});

describe('catalogue administration', () => {
  it('lets admins manage frameworks, versions and app images, which the app market then lists', async () => {
    const fw = await admin.request<{ id: number }>('POST', '/api/admin/frameworks', {
      name: 'ComfyUI',
      ports: { ssh: 22, web: 8188 },
    });
    expect(fw.status).toBe(201);
    const dup = await admin.request<{ detail: string }>('POST', '/api/admin/frameworks', {
      name: 'ComfyUI',
      ports: {},
    });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toBe('框架名称已存在');
    const bad = await admin.request<{ detail: string }>(
      'POST',
      `/api/admin/frameworks/${fw.body.id}/versions`,
      { version: 'x', image: 'Bad Image!' },
    );
    expect(bad.body.detail).toBe('镜像地址格式不正确');
    const version = await admin.request<{ id: number; ports: Record<string, number> }>(
      'POST',
      `/api/admin/frameworks/${fw.body.id}/versions`,
      {
        version: '0.3-cuda12.4',
        image: inject('testImage'),
        cuda_version: '12.4',
        ports: { ssh: 22, web: 8188 },
      },
    );
    expect(version.status).toBe(201);
    const image = await admin.request<{ id: number }>('POST', '/api/admin/images', {
      name: 'ComfyUI 工作流',
      description: '节点式 Stable Diffusion 工作流',
      category: 'cv',
      framework_version_id: version.body.id,
    });
    expect(image.status).toBe(201);

    const visitor = new ApiClient(cp.url);
    const cv = await visitor.request<
      { name: string; framework: { name: string; version: { name: string } } }[]
    >('GET', '/api/images?category=cv');
    expect(cv.body.map((i) => i.name)).toContain('ComfyUI 工作流');
    expectServed(z.array(appImageReply), cv.body);
    const searched = await visitor.request<{ name: string }[]>(
      'GET',
      `/api/images?search=${encodeURIComponent('stable diffusion')}`,
    );
    expect(searched.body.map((i) => i.name)).toEqual(['ComfyUI 工作流']);
    const nlp = await visitor.request<{ name: string }[]>('GET', '/api/images?category=nlp');
    expect(nlp.body.map((i) => i.name)).not.toContain('ComfyUI 工作流');

    const user = new ApiClient(cp.url);
    await user.register('catuser');
    expect((await user.request('POST', '/api/admin/frameworks', { name: 'Nope', ports: {} })).status).toBe(
      403,
    );
    expect((await user.request('GET', '/api/admin/products')).status).toBe(403);

    expect((await admin.request('DELETE', `/api/admin/images/${image.body.id}`)).status).toBe(200);
  });

  it('lets admins create, disable and delete cloud products', async () => {
    const created = await admin.request<{
      id: number;
      price: number;
      enabled: boolean;
      server_config: { system_gpu_type: string };
    }>('POST', '/api/admin/products', {
      node_id: market.nodeId,
      name: 'Windows 工作站',
      region: '测试区',
      gpu_type: 'RTX 4090',
      price: 2.5,
      no_gpu_price: 0.3,
      server_config: { system_gpu_type: 'windows' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      price: 2.5,
      enabled: true,
      server_config: { system_gpu_type: 'windows' },
    });
    expectServed(adminProductReply, created.body);
    const badPrice = await admin.request<{ detail: string }>('POST', '/api/admin/products', {
      node_id: market.nodeId,
      name: 'x',
      region: 'r',
      gpu_type: 'g',
      price: 1.234,
    });
    expect(badPrice.body.detail).toBe('单价最多两位小数');

    const user = new ApiClient(cp.url);
    await user.register('catuser2');
    const windows = await user.request<{ items: { id: number }[] }>(
      'GET',
      '/api/cloud-products?systemType=windows',
    );
    expect(windows.body.items.map((p) => p.id)).toEqual([created.body.id]);
    expectServed(cloudProductListReply, windows.body);
    const ubuntu = await user.request<{ items: { id: number }[] }>(
      'GET',
      '/api/cloud-products?systemType=ubuntu',
    );
    expect(ubuntu.body.items.map((p) => p.id)).not.toContain(created.body.id);

    const disabled = await admin.request<{ enabled: boolean }>(
      'PUT',
      `/api/admin/products/${created.body.id}`,
      {
        node_id: market.nodeId,
        name: 'Windows 工作站',
        region: '测试区',
        gpu_type: 'RTX 4090',
        price: 2.5,
        server_config: { system_gpu_type: 'windows' },
        enabled: false,
      },
    );
    expect(disabled.body.enabled).toBe(false);
    expect(
      (await user.request<{ items: unknown[] }>('GET', '/api/cloud-products?systemType=windows')).body.items,
    ).toHaveLength(0);
    expect((await admin.request('DELETE', `/api/admin/products/${created.body.id}`)).status).toBe(200);
  });
});

describe('app market deploy', () => {
  it('deploys an app image on the cheapest fitting server, with the environment it was given', async () => {
    const version = await cp.services.catalogue.versions(market.frameworkId);
    const image = await admin.request<{ id: number }>('POST', '/api/admin/images', {
      name: '基础环境',
      category: 'all',
      framework_version_id: version[0]?.id,
    });
    const user = new ApiClient(cp.url);
    await user.register('deployer');
    // The drawer first asks which server (and so which price) a deploy would use.
    const quote = await user.request<{ id: number; price: number }>(
      'GET',
      `/api/apps/deploy-quote?image_id=${image.body.id}&gpu_type=rtx4090&gpuCount=2`,
    );
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body).toMatchObject({ id: market.productId, price: market.pricePerGpuHour });
    const res = await user.request<{
      container_id: string;
      status: string;
      product_id: number;
      total_price: number;
    }>('POST', '/api/apps/deploy', {
      image_id: image.body.id,
      instanceName: 'my-app',
      gpu_type: 'rtx4090',
      gpuCount: 2,
      env: [{ key: 'MODEL_NAME', value: 'deepseek-r1-distill-qwen-7b' }],
      agreeTerms: true,
      total_price: 3.98,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: 'creating', product_id: market.productId, total_price: 3.98 });
    const inspect = await new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') })
      .getContainer(`gpucloud-${res.body.container_id}`)
      .inspect();
    expect(inspect.Config.Env).toContain('MODEL_NAME=deepseek-r1-distill-qwen-7b');

    const none = await user.request<{ detail: string }>('POST', '/api/apps/deploy', {
      image_id: image.body.id,
      instanceName: 'x',
      gpu_type: 'a100',
      gpuCount: 1,
      agreeTerms: true,
      total_price: 1.99,
    });
    expect(none.status).toBe(409);
    expect(none.body.detail).toBe('暂无满足条件的服务器，请更换 GPU 型号或减少数量');
    const noQuote = await user.request<{ detail: string }>(
      'GET',
      `/api/apps/deploy-quote?image_id=${image.body.id}&gpu_type=a100&gpuCount=1`,
    );
    expect(noQuote.status).toBe(409);
    expect(noQuote.body.detail).toBe('暂无满足条件的服务器，请更换 GPU 型号或减少数量');
    const badEnv = await user.request<{ detail: string }>('POST', '/api/apps/deploy', {
      image_id: image.body.id,
      instanceName: 'x',
      gpu_type: 'rtx4090',
      gpuCount: 1,
      env: [{ key: '1BAD', value: 'v' }],
      agreeTerms: true,
      total_price: 1.99,
    });
    expect(badEnv.body.detail).toBe('环境变量名只能包含字母、数字和下划线，且不能以数字开头');
    // The agent sets the NVIDIA_* variables that steer the toolkit; only NVIDIA_REQUIRE_* is the user's.
    const nvidiaEnv = await user.request<{ detail: string }>('POST', '/api/apps/deploy', {
      image_id: image.body.id,
      instanceName: 'x',
      gpu_type: 'rtx4090',
      gpuCount: 1,
      env: [{ key: 'NVIDIA_DRIVER_CAPABILITIES', value: 'all' }],
      agreeTerms: true,
      total_price: 1.99,
    });
    expect(nvidiaEnv.status).toBe(400);
    expect(nvidiaEnv.body.detail).toBe('不能设置 NVIDIA_ 开头的环境变量（NVIDIA_REQUIRE_* 除外）');
  });

  it('charges nothing the user did not see: no terms, a wrong price or an unbounded field is refused', async () => {
    const version = await cp.services.catalogue.versions(market.frameworkId);
    const image = await admin.request<{ id: number }>('POST', '/api/admin/images', {
      name: '条款测试',
      category: 'all',
      framework_version_id: version[0]?.id,
    });
    const user = new ApiClient(cp.url);
    await user.register('deploy_terms');
    const userId = (await cp.knex('users').where({ username: 'deploy_terms' }).first('id')).id;
    const balance = async () =>
      Number((await cp.knex('billing_accounts').where({ user_id: userId }).first('balance_fen')).balance_fen);
    const containers = async () =>
      Number((await cp.knex('containers').where({ user_id: userId }).count())[0]?.count);
    const before = await balance();
    const body = {
      image_id: image.body.id,
      instanceName: 'terms',
      gpu_type: 'rtx4090',
      gpuCount: 1,
      agreeTerms: true,
      total_price: market.pricePerGpuHour,
    };
    const refusals: [Record<string, unknown>, string][] = [
      [{ agreeTerms: undefined }, '请同意服务条款'],
      [{ agreeTerms: false }, '请同意服务条款'],
      [{ agreeTerms: 'true' }, '请同意服务条款'],
      // The purchase's own rule and words for a total that is not the server's.
      [{ total_price: market.pricePerGpuHour + 0.01 }, '价格已变化，请刷新后重试'],
      [{ total_price: 0 }, '价格已变化，请刷新后重试'],
      [{ total_price: undefined }, '价格不能为空'],
      [{ total_price: -1 }, '价格已变化，请刷新后重试'],
      [{ total_price: 1e12 }, '价格已变化，请刷新后重试'],
      [{ image_id: 2 ** 53 }, '请选择应用'],
      [{ image_id: 1.5 }, '请选择应用'],
      [{ image_id: '1' }, '请选择应用'],
      [{ instanceName: 'x'.repeat(10_000) }, '实例名称不能超过64个字符'],
      [
        { env: [{ key: 'K'.repeat(10_000), value: 'v' }] },
        '环境变量名只能包含字母、数字和下划线，且不能以数字开头',
      ],
      [{ env: [{ key: 'K', value: 'v'.repeat(5000) }] }, '环境变量值不能超过4096个字符'],
      [{ gpuCount: 9 }, 'GPU数量为1-8'],
    ];
    for (const [change, detail] of refusals) {
      const res = await user.request<{ detail: string }>('POST', '/api/apps/deploy', { ...body, ...change });
      expect(res.status, `${JSON.stringify(change).slice(0, 80)}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.detail).toBe(detail);
    }
    const badQuote = await user.request<{ detail: string }>(
      'GET',
      `/api/apps/deploy-quote?image_id=${2 ** 60}&gpu_type=rtx4090&gpuCount=1`,
    );
    expect(badQuote.status).toBe(400);
    expect(badQuote.body.detail).toBe('请选择应用');
    expect((await new ApiClient(cp.url).request('GET', '/api/apps/deploy-quote')).status).toBe(401);
    expect(await balance()).toBe(before);
    expect(await containers()).toBe(0);
  });
});

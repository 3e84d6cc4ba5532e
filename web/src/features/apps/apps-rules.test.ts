import type { AppImage } from '@gpucloud/control-plane/api';
import { describe, expect, it } from 'vitest';
import {
  type DeployableImage,
  deployChoice,
  marketPathFor,
  PENDING_DEPLOY_KEY,
  storePendingDeploy,
  takePendingDeploy,
} from '../../lib/pending-deploy';
import { imageQueryParams } from './categories';
import { buildDeployPayload, checkEnv, checkEnvKey, deployTotal, filledEnv } from './deploy';

const image: AppImage = {
  id: 4,
  name: 'PyTorch 2.5.1',
  icon: '',
  description: 'PyTorch',
  category: 'pytorch',
  created_at: '2025-03-01T08:00:00Z',
  framework_version_id: 7,
  framework: { id: 2, name: 'PyTorch', version: { id: 7, name: '2.5.1-cuda12.4', cuda_version: '12.4' } },
};

describe('the pending deploy choice', () => {
  it('links to the market with framework and version ids and imageType=public', () => {
    expect(marketPathFor(deployChoice(image))).toBe('/market?framework=2&version=7&imageType=public');
  });

  it('falls back to names when the image carries no ids', () => {
    const named: DeployableImage = {
      name: image.name,
      framework: { name: 'PyTorch', version: { name: '2.5.1' } },
    };
    expect(marketPathFor(deployChoice(named))).toBe(
      '/market?framework=PyTorch&version=2.5.1&imageType=public',
    );
  });

  it('is read once and then forgotten', () => {
    storePendingDeploy(deployChoice(image, 1000));
    expect(window.localStorage.getItem(PENDING_DEPLOY_KEY)).not.toBeNull();
    expect(takePendingDeploy(2000)).toMatchObject({ framework: '2', version: '7', imageType: 'public' });
    expect(window.localStorage.getItem(PENDING_DEPLOY_KEY)).toBeNull();
    expect(takePendingDeploy(2000)).toBeNull();
  });

  it('a choice older than an hour, or garbage, is ignored', () => {
    storePendingDeploy(deployChoice(image, 0));
    expect(takePendingDeploy(60 * 60 * 1000 + 1)).toBeNull();
    window.localStorage.setItem(PENDING_DEPLOY_KEY, '{not json');
    expect(takePendingDeploy()).toBeNull();
  });
});

describe('the image query', () => {
  it('leaves out all and an empty search', () => {
    expect(imageQueryParams('all', ' ')).toEqual({ category: undefined, search: undefined });
    expect(imageQueryParams('nlp', ' llama ')).toEqual({ category: 'nlp', search: 'llama' });
  });
});

describe('deploy drawer rules', () => {
  it('checks environment variable names', () => {
    expect(checkEnvKey('MODEL', [])).toBeNull();
    expect(checkEnvKey('', [])).toBe('请输入环境变量名');
    expect(checkEnvKey('1ABC', [])).toBe('环境变量名只能包含字母、数字和下划线，且不能以数字开头');
    expect(checkEnvKey('MY-VAR', [])).toBe('环境变量名只能包含字母、数字和下划线，且不能以数字开头');
    expect(checkEnvKey('NVIDIA_VISIBLE_DEVICES', [])).toBe(
      '不能设置 NVIDIA_ 开头的环境变量（NVIDIA_REQUIRE_* 除外）',
    );
    expect(checkEnvKey('NVIDIA_DRIVER_CAPABILITIES', [])).toBe(
      '不能设置 NVIDIA_ 开头的环境变量（NVIDIA_REQUIRE_* 除外）',
    );
    expect(checkEnvKey('NVIDIA_REQUIRE_CUDA', [])).toBeNull();
    expect(checkEnvKey('MODEL', ['MODEL'])).toBe('环境变量名重复');
  });

  it('ignores empty rows and refuses more than 32', () => {
    expect(
      filledEnv([
        { key: ' ', value: '' },
        { key: ' A ', value: '1' },
      ]),
    ).toEqual([{ key: 'A', value: '1' }]);
    const many = Array.from({ length: 33 }, (_, i) => ({ key: `K${i}`, value: 'v' }));
    expect(checkEnv(many)).toBe('环境变量最多32个');
    expect(checkEnv(many.slice(0, 32))).toBeNull();
  });

  it('builds the body of POST /api/apps/deploy with the terms and the total the drawer showed', () => {
    const values = {
      instanceName: ' my-app ',
      gpuType: 'a100' as const,
      gpuCount: 2,
      env: [
        { key: 'MODEL', value: 'llama' },
        { key: '', value: '' },
      ],
      agreeTerms: true,
    };
    expect(buildDeployPayload(4, values, 1.99)).toEqual({
      image_id: 4,
      instanceName: 'my-app',
      gpu_type: 'a100',
      gpuCount: 2,
      env: [{ key: 'MODEL', value: 'llama' }],
      agreeTerms: true,
      total_price: 3.98,
    });
    // The purchase dialog's formula (integer fen): 3 × ¥0.07 is ¥0.21, not 0.21000000000000002.
    expect(deployTotal(0.07, 3)).toBe(0.21);
    expect(deployTotal(12.5, 8)).toBe(100);
    expect(() => buildDeployPayload(4, { ...values, agreeTerms: false }, 1.99)).toThrow();
  });
});

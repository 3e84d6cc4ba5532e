import { describe, expect, it } from 'vitest';
import { defaultInstanceName } from '../../lib/instances';
import { buildPurchasePayload, type PurchaseFormValues, presetFromSearch, totalFor } from './purchase';

const values: PurchaseFormValues = {
  instanceName: '  my-box ',
  imageType: 'public',
  framework: 3,
  frameworkVersion: 7,
  gpuCount: 2,
  needExpand: false,
  billingType: 'hourly',
  duration: 5,
  mounts: [{ source: 'alice-data', target: ' /root/data ' }],
  customPorts: [12000, 12001],
  agreeTerms: true,
};

describe('purchase payload', () => {
  it('carries the ids, ports, mounts and the computed total of docs/api.md', () => {
    const payload = buildPurchasePayload({ price: 1.99 }, values, { ports: { ssh: 22, jupyter: 8888 } });
    expect(payload).toEqual({
      instanceName: 'my-box',
      gpuCount: 2,
      needExpand: false,
      imageType: 'public',
      framework: 3,
      frameworkVersion: 7,
      frame_ports: { ssh: 22, jupyter: 8888 },
      custom_ports: [12000, 12001],
      agreeTerms: true,
      mounts: [{ source: 'alice-data', target: '/root/data' }],
      billing_type: 'hourly',
      duration: 5,
      total_price: 19.9,
    });
  });

  it('refuses to build from an incomplete form', () => {
    expect(() =>
      buildPurchasePayload({ price: 1 }, { ...values, framework: undefined }, undefined),
    ).toThrow();
  });

  it('the summary total is empty until count and duration are valid', () => {
    expect(totalFor({ price: 2 }, { ...values, duration: null })).toBeNull();
    expect(totalFor({ price: 2 }, { ...values, gpuCount: 0 })).toBeNull();
    expect(totalFor({ price: 2 }, { ...values, billingType: 'daily', duration: 1, gpuCount: 1 })).toBe(45.6);
  });
});

describe('purchase helpers', () => {
  it('reads the app-market preset from the query', () => {
    expect(presetFromSearch(new URLSearchParams('framework=pytorch&version=2.1&imageType=public'))).toEqual({
      framework: 'pytorch',
      version: '2.1',
      imageType: 'public',
      image: null,
    });
    expect(presetFromSearch(new URLSearchParams('imageType=weird')).imageType).toBeNull();
  });

  it('generates a default instance name', () => {
    expect(defaultInstanceName(() => 0)).toBe('instance-000000');
    expect(defaultInstanceName()).toMatch(/^instance-[0-9a-z]{6}$/);
  });
});

describe('自定义镜像', () => {
  it('sends the saved image instead of a framework version', () => {
    const payload = buildPurchasePayload(
      { price: 1.99 },
      { ...values, imageType: 'custom', framework: undefined, frameworkVersion: undefined, customImageId: 9 },
      undefined,
    );
    expect(payload).toMatchObject({
      imageType: 'custom',
      customImageId: 9,
      frame_ports: {},
      total_price: 19.9,
    });
    expect(payload).not.toHaveProperty('framework');
    expect(() =>
      buildPurchasePayload(
        { price: 1 },
        { ...values, imageType: 'custom', customImageId: undefined },
        undefined,
      ),
    ).toThrow();
  });

  it('reads /market?imageType=custom&image=<id> from 我的镜像', () => {
    expect(presetFromSearch(new URLSearchParams('imageType=custom&image=7'))).toMatchObject({
      imageType: 'custom',
      image: 7,
    });
    expect(presetFromSearch(new URLSearchParams('imageType=public&image=7')).image).toBeNull();
    expect(presetFromSearch(new URLSearchParams('imageType=custom&image=x')).image).toBeNull();
  });
});

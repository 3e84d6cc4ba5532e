import type { DeployPayload } from '@gpucloud/control-plane/api';
import { computeTotalPrice, type PriceInput } from '../../lib/billing-types';
import type { DeployGpuType, EnvEntry } from './types';

export const DEPLOY_GPU_TYPES: readonly { value: DeployGpuType; label: string }[] = [
  { value: 'rtx4090', label: 'RTX 4090' },
  { value: 'a100', label: 'A100' },
];
export const DEPLOY_GPU_COUNTS = [1, 2, 3, 4, 5, 6, 7, 8] as const;
export const MAX_ENV_ENTRIES = 32;

export const MSG_ENV_KEY_REQUIRED = '请输入环境变量名';
export const MSG_ENV_KEY_PATTERN = '环境变量名只能包含字母、数字和下划线，且不能以数字开头';
export const MSG_ENV_KEY_RESERVED = '不能设置 NVIDIA_ 开头的环境变量（NVIDIA_REQUIRE_* 除外）';
export const MSG_ENV_KEY_DUPLICATE = '环境变量名重复';
export const MSG_ENV_MAX = '环境变量最多32个';
/** The purchase dialog's words for the same checkbox. */
export const MSG_TERMS_REQUIRED = '请同意服务条款';

/** Values of the deploy drawer. */
export interface DeployFormValues {
  instanceName: string;
  gpuType: DeployGpuType;
  gpuCount: number;
  env: EnvEntry[];
  /** 我已阅读并同意服务条款: the 部署 button stays disabled until it is ticked. */
  agreeTerms: boolean;
}

/** A deploy buys one hour of the server, billed hourly (按小时计费). */
export const DEPLOY_BILLING: Pick<PriceInput, 'billingType' | 'duration'> = {
  billingType: 'hourly',
  duration: 1,
};

/** What a deploy charges now: the purchase dialog's formula for one hour of `gpuCount` GPUs. */
export function deployTotal(unitPrice: number, gpuCount: number): number {
  return computeTotalPrice({ unitPrice, gpuCount, ...DEPLOY_BILLING });
}

/** Rows left completely empty are ignored rather than refused. */
export function filledEnv(env: readonly EnvEntry[] | undefined): EnvEntry[] {
  return (env ?? [])
    .map((entry) => ({ key: (entry?.key ?? '').trim(), value: entry?.value ?? '' }))
    .filter((entry) => entry.key !== '' || entry.value !== '');
}

/** The problem with one environment variable name, given the names of the rows before it. */
export function checkEnvKey(key: string, earlierKeys: readonly string[]): string | null {
  const name = key.trim();
  if (!name) return MSG_ENV_KEY_REQUIRED;
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name)) return MSG_ENV_KEY_PATTERN;
  if (name.startsWith('NVIDIA_') && !name.startsWith('NVIDIA_REQUIRE_')) return MSG_ENV_KEY_RESERVED;
  if (earlierKeys.includes(name)) return MSG_ENV_KEY_DUPLICATE;
  return null;
}

export function checkEnv(env: readonly EnvEntry[] | undefined): string | null {
  const filled = filledEnv(env);
  if (filled.length > MAX_ENV_ENTRIES) return MSG_ENV_MAX;
  const seen: string[] = [];
  for (const entry of filled) {
    const problem = checkEnvKey(entry.key, seen);
    if (problem) return problem;
    seen.push(entry.key);
  }
  return null;
}

/** The body of POST /api/apps/deploy; `unitPrice` is the quoted server's, as the drawer shows it. */
export function buildDeployPayload(
  imageId: DeployPayload['image_id'],
  values: DeployFormValues,
  unitPrice: number,
): DeployPayload {
  if (values.agreeTerms !== true) throw new Error('the terms are not agreed');
  return {
    image_id: imageId,
    instanceName: values.instanceName.trim(),
    gpu_type: values.gpuType,
    gpuCount: values.gpuCount,
    env: filledEnv(values.env),
    agreeTerms: true,
    total_price: deployTotal(unitPrice, values.gpuCount),
  };
}

// The product's rules of time for containers nobody acts on, read once (config.ts): when a
// stopped hourly container is released, and how long before a release or a prepaid end its
// owner is warned. The jobs (src/jobs/container-lifecycle.ts) act on them; billing's notices
// name them in their texts.

const HOUR_MS = 3600_000;

/** A stopped hourly container is released after this (spec: 3 days), unless RELEASE_AFTER_HOURS says otherwise. */
export const DEFAULT_RELEASE_AFTER_MS = 72 * HOUR_MS;
/** Owners are warned this long before a release and before a prepaid container's end (a day). */
export const DEFAULT_WARN_BEFORE_MS = 24 * HOUR_MS;

export interface LifecycleSettings {
  /** RELEASE_AFTER_HOURS (default 72). */
  releaseAfterMs: number;
  /** LIFECYCLE_WARN_HOURS (default 24): the warning before a release and before a prepaid end. */
  warnBeforeMs: number;
}

function hours(env: NodeJS.ProcessEnv, name: string, fallbackMs: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallbackMs;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a number of hours > 0`);
  return Math.round(n * HOUR_MS);
}

export function lifecycleSettingsFromEnv(env: NodeJS.ProcessEnv): LifecycleSettings {
  const settings = {
    releaseAfterMs: hours(env, 'RELEASE_AFTER_HOURS', DEFAULT_RELEASE_AFTER_MS),
    warnBeforeMs: hours(env, 'LIFECYCLE_WARN_HOURS', DEFAULT_WARN_BEFORE_MS),
  };
  if (settings.warnBeforeMs >= settings.releaseAfterMs)
    throw new Error('LIFECYCLE_WARN_HOURS must be shorter than RELEASE_AFTER_HOURS');
  return settings;
}

/** A span as a notice says it: "3 天", "36 小时", "30 分钟". */
export function spanText(ms: number): string {
  const day = 24 * HOUR_MS;
  if (ms % day === 0) return `${ms / day} 天`;
  if (ms % HOUR_MS === 0) return `${ms / HOUR_MS} 小时`;
  return `${Math.round(ms / 60_000)} 分钟`;
}

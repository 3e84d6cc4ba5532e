// The storage quota, read once (config.ts): a user's volumes together may hold this much.

/** The spec's quota: 50 GB per user, all volumes together, unless STORAGE_QUOTA_GB says otherwise. */
export const DEFAULT_STORAGE_QUOTA_GB = 50;

export interface StorageSettings {
  /** STORAGE_QUOTA_GB (default 50). */
  storageQuotaGb: number;
}

export function storageSettingsFromEnv(env: NodeJS.ProcessEnv): StorageSettings {
  const value = env.STORAGE_QUOTA_GB;
  if (value === undefined || value === '') return { storageQuotaGb: DEFAULT_STORAGE_QUOTA_GB };
  const gb = Number(value);
  if (!Number.isFinite(gb) || gb <= 0) throw new Error('STORAGE_QUOTA_GB must be a number of GB > 0');
  return { storageQuotaGb: gb };
}

export interface ApiKey {
  id: number;
  name: string;
  /** Masked by the server (first 6 and last 4 characters), except right after creation. */
  key: string;
  created_at: string;
  last_used_at: string | null;
}

export const MAX_API_KEYS = 5;
/** How long a revealed key stays visible (spec §9). */
export const REVEAL_MS = 10_000;
export const SERVER_LIMIT_DETAIL = 'Maximum number of API keys reached';
export const MSG_LIMIT = '您已达到最大 API 密钥数量限制 (5个)';

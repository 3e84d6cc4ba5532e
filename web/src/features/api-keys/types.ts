// A key itself is the control plane's `ApiKey` (@gpucloud/control-plane/api).

export const MAX_API_KEYS = 5;
/** How long a revealed key stays visible (spec §9). */
export const REVEAL_MS = 10_000;
export const SERVER_LIMIT_DETAIL = 'Maximum number of API keys reached';
export const MSG_LIMIT = '您已达到最大 API 密钥数量限制 (5个)';

// The API keys' replies (个人中心 → API 密钥), written once: the service is typed by them and the
// console imports their types (src/api.ts). Only zod here.
import { z } from 'zod';

/** A key as GET /api/api-keys/ lists it. */
export const apiKeyReply = z.object({
  id: z.number(),
  name: z.string(),
  /** Masked (first 6 and last 4 characters), except in the answer of its creation. */
  key: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ApiKeyReply = z.infer<typeof apiKeyReply>;

export const apiKeyListReply = z.object({ items: z.array(apiKeyReply), total: z.number() });
export type ApiKeyListReply = z.infer<typeof apiKeyListReply>;

/** POST /api/api-keys/{id}/reveal ({password}): the full key. */
export const revealedApiKeyReply = z.object({ id: z.number(), key: z.string() });
export type RevealedApiKeyReply = z.infer<typeof revealedApiKeyReply>;

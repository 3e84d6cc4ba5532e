import { ApiClient } from '../api-client.js';
import { parseCommand } from '../args.js';
import { configFile, DEFAULT_URL, normalizeUrl, readLogin, type StoredLogin, writeLogin } from '../config.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { renderJson } from '../output.js';
import { askSecret } from '../prompt.js';

/**
 * GET /api/mcp/whoami. Its reply is not among the control plane's exported API types
 * (control-plane/src/api.ts), so it is written here; modules/auth/routes.ts answers it.
 */
interface WhoAmI {
  id: number;
  username: string;
  via: 'session' | 'api_key';
}

/** gpucloud login: checks the key on the server, then saves URL and key (0600). */
export async function loginCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'login',
    args,
    { url: { type: 'string' }, 'api-key': { type: 'string' } },
    ctx.msg,
  );
  if (positionals.length > 0) throw new UsageError(ctx.msg.tooManyArguments, 'login');
  let saved: StoredLogin | undefined;
  try {
    saved = readLogin(configFile(ctx.configDir), ctx.msg);
  } catch {
    saved = undefined; // a broken file is replaced by this login
  }
  const url = normalizeUrl(values.url ?? ctx.env.GPUCLOUD_URL ?? saved?.url ?? DEFAULT_URL, ctx.msg);
  const apiKey = (values['api-key'] ?? (await askSecret(ctx, ctx.msg.apiKeyPrompt))).trim();
  if (!apiKey) throw new UsageError(ctx.msg.noApiKey, 'login');
  const who = await new ApiClient(url, apiKey, ctx.msg).get<WhoAmI>('/api/mcp/whoami');
  const file = writeLogin(ctx.configDir, { url, api_key: apiKey });
  if (ctx.json) ctx.stdout.write(renderJson({ url, username: who.username, user_id: who.id, config: file }));
  else ctx.stdout.write(`${ctx.msg.loggedIn(who.username, url, file)}\n`);
  return 0;
}

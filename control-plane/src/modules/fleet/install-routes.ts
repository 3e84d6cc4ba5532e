// What a GPU host downloads to join (issue 19): the install script and the agent bundle. Public,
// no session: the bundle holds no secret, and the join token given to the script is the only
// credential (checked by POST /api/agent/join).
//
//   GET /install/agent.sh               deploy/agent/install.sh, self-contained (its helper
//                                       inlined) and with this control plane's URL as the
//                                       default --control-plane
//   GET /install/agent-bundle.tar.gz    the agent bundle (fleet/bundle.ts)
//   GET /install/agent-bundle.sha256    `<sha256>  <file name>` (sha256sum's format)
import { createReadStream, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import type { AppState } from '../../framework/auth.js';
import { unavailable } from '../../framework/errors.js';
import { requestOrigin } from '../../framework/proxy.js';
import type { AgentBundle } from './bundle.js';

const SCRIPT = fileURLToPath(new URL('../../../../deploy/agent/install.sh', import.meta.url));
const PROBE_HELPER = fileURLToPath(new URL('../../../../deploy/agent/gpu-probe-image.sh', import.meta.url));

/** The line of install.sh that the served copy fills in. */
const DEFAULT_LINE = /^DEFAULT_CONTROL_PLANE=""$/m;
/** The line of install.sh that sources its helper; the served copy holds the helper instead. */
const SOURCE_LINE = /^\. "\$SRC\/deploy\/agent\/gpu-probe-image\.sh"$/m;

/** An origin that can be written into the script as is (no quote, no `$`, no space). */
const PLAIN_ORIGIN = /^https?:\/\/[A-Za-z0-9.:[\]-]+$/;

/**
 * install.sh as served: the GPU probe helper inlined (a script piped into bash has no folder to
 * source it from) and `origin` as its default control plane. An origin that is not a plain
 * http(s) origin (it would be written into a shell script) is left out: the operator then gives
 * --control-plane.
 */
export function servedInstallScript(origin: string): string {
  const fill = PLAIN_ORIGIN.test(origin) ? origin : '';
  const script = readFileSync(SCRIPT, 'utf8');
  const helper = readFileSync(PROBE_HELPER, 'utf8').replace(/^# shellcheck shell=bash\n/, '');
  if (!DEFAULT_LINE.test(script) || !SOURCE_LINE.test(script)) {
    throw new Error('deploy/agent/install.sh lacks the lines the served copy fills in');
  }
  return script
    .replace(DEFAULT_LINE, `DEFAULT_CONTROL_PLANE="${fill}"`)
    .replace(
      SOURCE_LINE,
      () => `# --- deploy/agent/gpu-probe-image.sh, inlined by the control plane\n${helper}# ---`,
    );
}

export interface InstallRouteDeps {
  bundle: () => Promise<AgentBundle>;
  /** PUBLIC_URL: the control plane's address for hosts; else the origin the request came to. */
  publicUrl?: string | undefined;
  log: (message: string, err?: unknown) => void;
}

export function installRoutes(deps: InstallRouteDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/install' });
  const bundle = async () => {
    try {
      return await deps.bundle();
    } catch (err) {
      deps.log('the agent bundle could not be built', err);
      throw unavailable('节点代理安装包暂时无法生成，请查看控制面日志');
    }
  };

  router.get('/agent.sh', (ctx) => {
    const origin = (deps.publicUrl ? new URL(deps.publicUrl).origin : requestOrigin(ctx)).replace(/\/+$/, '');
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/x-shellscript; charset=utf-8';
    ctx.body = servedInstallScript(origin);
  });

  router.get('/agent-bundle.sha256', async (ctx) => {
    const b = await bundle();
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = `${b.sha256}  ${b.fileName}\n`;
  });

  router.get('/agent-bundle.tar.gz', async (ctx) => {
    const b = await bundle();
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('Content-Disposition', `attachment; filename="${b.fileName}"`);
    ctx.set('ETag', `"${b.sha256}"`);
    ctx.set('X-Agent-Version', b.version);
    ctx.set('X-Agent-Build', b.build);
    ctx.type = 'application/gzip';
    ctx.length = b.size;
    ctx.body = createReadStream(b.path);
  });

  return router;
}

import type { McpLogs } from '@gpucloud/control-plane/api';
import WebSocket from 'ws';
import { intOption, parseCommand, requirePositionals } from '../args.js';
import { findContainer } from '../container-ref.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { renderJson } from '../output.js';

/** The API's tail limits (control-plane mcp/schema.ts LOG_TAIL_DEFAULT / LOG_TAIL_MAX). */
const TAIL_DEFAULT = 200;
const TAIL_MAX = 5000;

/** Close codes of the log WebSocket (control-plane containers/ws-routes.ts). */
const CLOSE_NORMAL = 1000;
const CLOSE_UNAUTHORIZED = 4401;
const CLOSE_NOT_FOUND = 4404;

/**
 * gpucloud logs <name> [--tail N]: the last lines (GET /api/mcp/containers/{id}/logs);
 * -f follows the log over the WebSocket the console uses, until Ctrl-C or the container's end.
 */
export async function logsCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'logs',
    args,
    { follow: { type: 'boolean', short: 'f' }, tail: { type: 'string' } },
    ctx.msg,
  );
  const [ref] = requirePositionals('logs', positionals, ['<name>'], ctx.msg);
  const tail = intOption('logs', '--tail', values.tail, TAIL_DEFAULT, { min: 1, max: TAIL_MAX }, ctx.msg);
  const api = ctx.api();
  // By the REST API first: a foreign or unknown container gets the API's own answer.
  const container = await findContainer(api, ref as string, ctx.msg);
  if (values.follow) return follow(ctx, container.container_id, tail);
  const answer = await api.get<McpLogs>(`/api/mcp/containers/${container.container_id}/logs`, { tail });
  if (ctx.json) ctx.stdout.write(renderJson(answer));
  else ctx.stdout.write(answer.logs.endsWith('\n') || answer.logs === '' ? answer.logs : `${answer.logs}\n`);
  return 0;
}

function follow(ctx: CliContext, id: string, tail: number): Promise<number> {
  const api = ctx.api();
  const ws = new WebSocket(api.wsUrl(`/api/containers/ws/${id}/logs`, { tail }), { headers: api.headers() });
  return new Promise<number>((resolve, reject) => {
    let interrupted = false;
    const stopWatching = ctx.onInterrupt(() => {
      interrupted = true;
      ws.close(CLOSE_NORMAL);
      // A server that does not answer the close: give up after a moment.
      setTimeout(() => ws.terminate(), 2000).unref();
    });
    const end = (result: number | Error) => {
      stopWatching();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
      ctx.stdout.write(ctx.json ? `${JSON.stringify({ log: text })}\n` : text);
    });
    ws.on('error', (err) => end(new CliError(ctx.msg.unreachable(api.baseUrl, err.message))));
    ws.on('close', (code) => {
      if (interrupted || code === CLOSE_NORMAL) end(0);
      else if (code === CLOSE_UNAUTHORIZED || code === CLOSE_NOT_FOUND)
        end(new CliError(ctx.msg.noSuchContainer(id)));
      else end(new CliError(ctx.msg.logStreamLost));
    });
  });
}

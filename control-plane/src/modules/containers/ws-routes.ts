import * as grpc from '@grpc/grpc-js';
import Router from '@koa/router';
import type { Context } from 'koa';
import type WebSocket from 'ws';
import type { AgentPool } from '../../agents/agent-pool.js';
import type { ApiKeyAuthenticator, Authenticator } from '../../framework/auth.js';
import { AppError } from '../../framework/errors.js';
import { CONTAINER_ID_PATTERN } from '../../framework/validate.js';
import { LogFrameBatcher } from './log-frames.js';
import { ResumableLogStream } from './log-resume.js';
import type { ContainersService } from './service.js';

type WsContext = Context & { websocket: WebSocket };

// Close codes in the private range: the console shows the reason.
const CLOSE_UNAUTHORIZED = 4401;
const CLOSE_NOT_FOUND = 4404;
const CLOSE_UPSTREAM = 4502;
const CLOSE_NOT_RUNNING = 4409;

/**
 * WebSocket routes (koa-websocket has its own middleware stack, so auth is done here: the session
 * token as `?token=` (a browser cannot set headers on a WebSocket), or a script's `X-API-Key` header):
 * - `/api/containers/ws/{id}/logs?token=…&tail=` streams the container's log as text frames;
 * - `/api/containers/ws/{id}/console?token=…&cols=&rows=` is a shell in the container: text
 *   frames from the browser are keyboard input (an empty text frame = Ctrl-C), binary frames are
 *   control messages (`{"type":"resize","cols":…,"rows":…}`); the shell's output comes back as
 *   binary frames, and its end closes the socket with code 1000 and reason `exit <code>`.
 */
export function containerWsRoutes(deps: {
  auth: Authenticator;
  apiKeys?: ApiKeyAuthenticator;
  containers: ContainersService;
  agents: AgentPool;
}) {
  const router = new Router();

  router.get('/api/containers/ws/:id/logs', async (ctx) => {
    const ws = (ctx as unknown as WsContext).websocket;
    const target = await authorize(ctx, ws);
    if (!target) return;
    const tail = Math.min(Math.max(Number(ctx.query.tail ?? 200) || 200, 1), 5000);
    const agent = () => deps.agents.get(target.node);
    // Followed across the agent's restarts (an upgrade): see log-resume.ts.
    let frames: LogFrameBatcher;
    const logs = new ResumableLogStream({
      containerId: target.container.id,
      tail,
      open: (request) => agent().streamLogs(request),
      inspect: () => agent().inspectContainer(target.container.id),
      onData: (chunk) => frames.push(chunk),
      onEnd: () => {
        frames.flush();
        if (ws.readyState === ws.OPEN) ws.close(1000, 'end of log');
      },
      onError: (detail) => {
        frames.flush();
        if (ws.readyState === ws.OPEN) {
          ws.send(`\r\n[日志流已断开：${detail}]\r\n`);
          ws.close(CLOSE_UPSTREAM, 'upstream error');
        }
      },
    });
    // Batched frames with backpressure: a slow browser pauses the agent's stream (and, through
    // gRPC flow control, the agent's read from Docker) instead of filling this process's memory.
    frames = new LogFrameBatcher(
      {
        send: (text, sent) => {
          if (ws.readyState === ws.OPEN) ws.send(text, sent);
          else sent();
        },
        bufferedAmount: () => ws.bufferedAmount,
      },
      { pause: () => logs.pause(), resume: () => logs.resume() },
    );
    ws.on('close', () => {
      frames.close();
      logs.close();
    });
    ws.on('error', () => {
      frames.close();
      logs.close();
    });
  });

  router.get('/api/containers/ws/:id/console', async (ctx) => {
    const ws = (ctx as unknown as WsContext).websocket;
    // Keystrokes may arrive while the caller is being checked: keep them for the shell.
    const early: { data: Buffer; isBinary: boolean }[] = [];
    const keep = (data: Buffer, isBinary: boolean) => early.push({ data, isBinary });
    ws.on('message', keep);
    const target = await authorize(ctx, ws);
    if (!target) return;
    if (target.container.status !== 'running') {
      ws.close(CLOSE_NOT_RUNNING, 'container not running');
      return;
    }
    const size = (v: unknown, fallback: number) => Math.min(Math.max(Number(v) || fallback, 10), 500);
    const call = deps.agents.get(target.node).console();
    call.write({
      open: {
        containerId: target.container.id,
        command: [],
        cols: size(ctx.query.cols, 80),
        rows: size(ctx.query.rows, 24),
      },
    });
    call.on('data', (out: { data?: Buffer | null; exitCode?: number | null; output?: string }) => {
      if (ws.readyState !== ws.OPEN) return;
      if (out.output === 'exitCode') ws.close(1000, `exit ${out.exitCode ?? 0}`);
      else if (out.data && out.data.length > 0) ws.send(out.data);
    });
    call.on('error', (err: grpc.ServiceError) => {
      if (err.code !== grpc.status.CANCELLED && ws.readyState === ws.OPEN) {
        ws.close(CLOSE_UPSTREAM, (err.details || 'console failed').slice(0, 100));
      }
    });
    call.on('end', () => {
      if (ws.readyState === ws.OPEN) ws.close(1000, 'closed');
    });
    const forward = (data: Buffer, isBinary: boolean) => {
      if (!isBinary) {
        if (data.length === 0) call.write({ interrupt: true });
        else call.write({ stdin: data });
        return;
      }
      const control = parseControl(data);
      if (control) call.write({ resize: { cols: size(control.cols, 80), rows: size(control.rows, 24) } });
    };
    ws.off('message', keep);
    for (const m of early) forward(m.data, m.isBinary);
    ws.on('message', forward);
    ws.on('close', () => call.cancel());
    ws.on('error', () => call.cancel());
  });

  /** The caller's live container and its node, or undefined after closing the socket. */
  async function authorize(ctx: Pick<Context, 'query' | 'params' | 'get'>, ws: WebSocket) {
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : undefined;
    const apiKey = ctx.get('x-api-key').trim();
    const user = token
      ? await deps.auth.authenticate(token)
      : apiKey && deps.apiKeys
        ? await deps.apiKeys.authenticate(apiKey)
        : undefined;
    if (!user) {
      ws.close(CLOSE_UNAUTHORIZED, 'unauthorized');
      return undefined;
    }
    const id = String(ctx.params.id);
    // Not an id the platform makes (NUL, junk): no container, without asking the database.
    if (!CONTAINER_ID_PATTERN.test(id)) {
      ws.close(CLOSE_NOT_FOUND, 'not found');
      return undefined;
    }
    try {
      return await deps.containers.streamTarget(user, id);
    } catch (err) {
      ws.close(err instanceof AppError && err.status === 404 ? CLOSE_NOT_FOUND : CLOSE_UPSTREAM, 'not found');
      return undefined;
    }
  }

  return router;
}

function parseControl(data: Buffer): { cols: number; rows: number } | undefined {
  try {
    const value: unknown = JSON.parse(data.toString('utf8'));
    if (typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'resize') {
      const { cols, rows } = value as { cols?: unknown; rows?: unknown };
      return { cols: Number(cols), rows: Number(rows) };
    }
  } catch {
    // not a control message: ignored
  }
  return undefined;
}

// The streaming methods of NodeAgent. Each one stops its source (Docker stream, exec, timers)
// when the call is cancelled, so a viewer leaving never leaves work behind.
import type { ConsoleInput__Output, NodeAgentHandlers } from '@gpucloud/proto';
import { INTERRUPT, openConsole } from '../console/console-session.js';
import type { InteractiveExec } from '../docker/container-client.js';
import { AgentError, errorMessage, invalidArgument } from '../errors.js';
import { watchEvents } from '../events/event-watch.js';
import { LogBatcher } from '../logs/log-batcher.js';
import { type LogStreamHandle, openLogStream } from '../logs/log-stream.js';
import { registryAuthFromProto, watchEventToProto } from './convert.js';
import { authorizedStream, failStream, type RpcDeps, trackStream } from './rpc-support.js';

const MIN_INTERVAL_MS = 100;
const CONSOLE_EOF_GRACE_MS = 5000;
const IMAGE_REF = /^[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}$/;

type StreamMethods =
  | 'WatchEvents'
  | 'StreamLogs'
  | 'Console'
  | 'PullImage'
  | 'SaveImage'
  | 'DeleteVolumeWithProgress';

export function streamHandlers(deps: RpcDeps): Pick<NodeAgentHandlers, StreamMethods> {
  return {
    // Progress while it works; the last message has `done`. Unlike the other streams, a cancelled
    // call stops only the reporting: a half-deleted volume helps nobody, and the control plane
    // (restarted, or another replica) asks again and follows the delete under way.
    DeleteVolumeWithProgress: authorizedStream(deps, 'DeleteVolumeWithProgress', (call) => {
      const { ownerId, name } = call.request;
      const listening = new AbortController();
      call.on('cancelled', () => listening.abort());
      trackStream(deps, call, () => {
        if (listening.signal.aborted) return;
        listening.abort();
        failStream(
          deps,
          'DeleteVolumeWithProgress',
          call,
          new AgentError('UNAVAILABLE', '节点代理正在停止, 删除未完成 (agent shutting down; ask again)'),
        );
      });
      deps.volumes
        .delete(ownerId, name, {
          signal: listening.signal,
          onProgress: (p) =>
            call.write({
              phase: p.phase,
              filesDone: p.entriesDone,
              filesTotal: p.entriesTotal,
              bytesDone: p.bytesDone,
              bytesTotal: p.bytesTotal,
              done: false,
              deleted: false,
            }),
        })
        .then(
          (deleted) => {
            if (listening.signal.aborted) return;
            call.write({ phase: 'done', done: true, deleted });
            call.end();
          },
          (err: unknown) => {
            if (listening.signal.aborted) return;
            failStream(deps, 'DeleteVolumeWithProgress', call, err);
          },
        );
    }),

    // Progress while it works; the last message has `done` and the result. A cancelled call
    // stops the push; the container is left as it was either way.
    SaveImage: authorizedStream(deps, 'SaveImage', (call) => {
      const req = call.request;
      const controller = new AbortController();
      call.on('cancelled', () => controller.abort());
      trackStream(deps, call, () => controller.abort());
      const auth = registryAuthFromProto(req.auth);
      deps.saver
        .save(
          {
            containerId: req.containerId,
            repository: req.repository,
            tag: req.tag,
            ...(auth ? { auth } : {}),
            baseImage: req.baseImage,
            description: req.description,
          },
          (p) => {
            if (p.phase === 'done' || controller.signal.aborted) return;
            call.write({
              phase: p.phase,
              percent: p.percent,
              bytesDone: p.bytesDone,
              bytesTotal: p.bytesTotal,
              done: false,
            });
          },
          controller.signal,
        )
        .then(
          (result) => {
            call.write({
              phase: 'done',
              percent: 100,
              done: true,
              digest: result.digest,
              sizeBytes: result.sizeBytes,
              contentsJson: JSON.stringify(result.contents),
            });
            call.end();
          },
          (err: unknown) => {
            if (controller.signal.aborted) return;
            failStream(deps, 'SaveImage', call, err);
          },
        );
    }),

    WatchEvents: authorizedStream(deps, 'WatchEvents', (call) => {
      const { heartbeatIntervalMs, gpuSampleIntervalMs } = call.request;
      const stop = watchEvents(
        deps.watch,
        {
          heartbeatIntervalMs: Math.max(
            MIN_INTERVAL_MS,
            heartbeatIntervalMs || deps.defaultHeartbeatIntervalMs,
          ),
          gpuSampleIntervalMs: gpuSampleIntervalMs > 0 ? Math.max(MIN_INTERVAL_MS, gpuSampleIntervalMs) : 0,
        },
        (event) => call.write(watchEventToProto(event)),
      );
      call.on('cancelled', stop);
      call.on('close', stop);
      trackStream(deps, call, () => {
        stop();
        call.end();
      });
    }),

    StreamLogs: authorizedStream(deps, 'StreamLogs', (call) => {
      const req = call.request;
      let handle: LogStreamHandle | undefined;
      let cancelled = false;
      let sourcePaused = false;
      // Docker's messages go out in batches (~64 KB or 15 ms); while the viewer's side is full,
      // they wait, and past a few MB Docker's stream is paused.
      const batcher = new LogBatcher({
        write: ({ stream, data }) => call.write({ stream: stream === 'stderr' ? 'STDERR' : 'STDOUT', data }),
        pause: () => {
          sourcePaused = true;
          handle?.pause();
        },
        resume: () => {
          sourcePaused = false;
          handle?.resume();
        },
      });
      call.on('drain', () => batcher.drain());
      call.on('cancelled', () => {
        cancelled = true;
        batcher.close();
        handle?.close();
      });
      // On shutdown the Docker stream is closed; its end ends the call.
      trackStream(deps, call, () => handle?.close());
      openLogStream(
        deps.containers,
        {
          containerId: req.containerId,
          follow: req.follow,
          tail: req.tail,
          timestamps: req.timestamps,
          sinceUnixMs: Number(req.sinceUnixMs) || 0,
        },
        ({ stream, data }) => {
          if (!cancelled) batcher.push(stream, data);
        },
      )
        .then((opened) => {
          handle = opened;
          if (cancelled) opened.close();
          else if (sourcePaused) opened.pause();
          return opened.done;
        })
        .then(
          async () => {
            await batcher.idle();
            if (!cancelled) call.end();
          },
          async (err: unknown) => {
            await batcher.idle();
            if (!cancelled) failStream(deps, 'StreamLogs', call, err);
          },
        );
    }),

    Console: authorizedStream(deps, 'Console', (call) => {
      let session: InteractiveExec | undefined;
      let opening = false;
      let finished = false;
      let inputEnded = false;
      const queued: ConsoleInput__Output[] = [];
      const finish = (err?: unknown) => {
        if (finished) return;
        finished = true;
        session?.close();
        if (err) failStream(deps, 'Console', call, err);
        else call.end();
      };
      // In the order the viewer sent them: what is typed after a resize waits until the terminal
      // has its new size (a resize is a Docker call of its own, the keys go down the stream).
      let applied = Promise.resolve();
      const apply = (input: ConsoleInput__Output) => {
        applied = applied.then(async () => {
          if (!session || finished) return;
          if (input.input === 'stdin' && input.stdin) session.write(input.stdin);
          else if (input.input === 'interrupt' && input.interrupt) session.write(INTERRUPT);
          else if (input.input === 'resize' && input.resize) {
            await session.resize(input.resize.cols, input.resize.rows).catch((err: unknown) => {
              deps.log(`console resize failed: ${errorMessage(err)}`);
            });
          }
        });
      };
      // The viewer closed its side: what it typed may still be running (`exit` included), so the
      // shell gets a grace period before it is hung up.
      const endInput = (opened: InteractiveExec) =>
        setTimeout(() => opened.hangUp(), CONSOLE_EOF_GRACE_MS).unref();
      call.on('data', (input: ConsoleInput__Output) => {
        if (session) return apply(input);
        if (opening) return void queued.push(input);
        if (input.input !== 'open' || !input.open) {
          return finish(invalidArgument('the first console message must be `open`'));
        }
        opening = true;
        const open = input.open;
        openConsole(deps.containers, {
          containerId: open.containerId,
          command: open.command,
          cols: open.cols,
          rows: open.rows,
        }).then(
          (opened) => {
            if (finished) return opened.close();
            session = opened;
            opened.onData((data) => {
              if (!finished) call.write({ data });
            });
            for (const pending of queued.splice(0)) apply(pending);
            if (inputEnded) endInput(opened);
            opened.exitCode.then(
              (exitCode) => {
                if (finished) return;
                call.write({ exitCode });
                finish();
              },
              (err: unknown) => finish(err),
            );
          },
          (err: unknown) => finish(err),
        );
      });
      call.on('end', () => {
        inputEnded = true;
        if (session) endInput(session);
        else if (!opening) finish();
      });
      // The viewer left: hang the shell up now.
      call.on('cancelled', () => {
        finished = true;
        session?.close();
      });
      trackStream(deps, call, () => finish());
    }),

    PullImage: authorizedStream(deps, 'PullImage', (call) => {
      const { image } = call.request;
      if (!IMAGE_REF.test(image)) throw invalidArgument(`镜像名称不合法 (bad image reference "${image}")`);
      const controller = new AbortController();
      call.on('cancelled', () => controller.abort());
      trackStream(deps, call, () => controller.abort());
      deps.containers.puller
        .pull(
          image,
          registryAuthFromProto(call.request.auth),
          (p) => call.write({ id: p.id, status: p.status, current: p.current, total: p.total, done: false }),
          controller.signal,
        )
        .then(
          () => {
            call.write({
              id: '',
              status: `镜像 ${image} 已就绪 (image is present)`,
              current: 0,
              total: 0,
              done: true,
            });
            call.end();
          },
          (err: unknown) => {
            if (controller.signal.aborted) return;
            const mapped =
              err instanceof AgentError && err.code === 'INTERNAL'
                ? new AgentError('FAILED_PRECONDITION', `镜像拉取失败 (${err.message})`, { cause: err })
                : err;
            failStream(deps, 'PullImage', call, mapped);
          },
        );
    }),
  };
}

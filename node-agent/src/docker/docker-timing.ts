// Times every call the agent makes to the Docker engine, by operation (`engine.listContainers`,
// `container.inspect`, `image.inspect`, `exec.start`, ...): a proxy around dockerode's client and
// the handles it gives (containers, images, networks, execs), so no call site can forget it. The
// operation names are dockerode's method names, a bounded set whatever the containers; a call that
// opens a stream (logs, events, pull) is timed until the stream is open. Types only from dockerode.
import type Docker from 'dockerode';

/** Told of each Docker call once it settled: its operation, how long it took, whether it failed. */
export type DockerCallObserver = (operation: string, seconds: number, ok: boolean) => void;

/** Methods whose answer is a handle whose calls are timed too, and the handle's kind. */
const HANDLES: Record<string, Record<string, string>> = {
  engine: {
    getContainer: 'container',
    getImage: 'image',
    getNetwork: 'network',
    getVolume: 'volume',
    getExec: 'exec',
    createContainer: 'container',
  },
  container: { exec: 'exec' },
};

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function timed<T extends object>(target: T, kind: string, observe: DockerCallObserver): T {
  const handles = HANDLES[kind] ?? {};
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      const method = value as (...args: unknown[]) => unknown;
      const handleKind = handles[property];
      const operation = `${kind}.${property}`;
      return (...args: unknown[]) => {
        const started = performance.now();
        const result = method.apply(object, args);
        // getContainer(id) and the like answer at once: a handle, nothing asked of Docker yet.
        if (!isThenable(result)) {
          return handleKind && typeof result === 'object' && result !== null
            ? timed(result, handleKind, observe)
            : result;
        }
        return Promise.resolve(result).then(
          (answer) => {
            observe(operation, (performance.now() - started) / 1000, true);
            return handleKind && typeof answer === 'object' && answer !== null
              ? timed(answer, handleKind, observe)
              : answer;
          },
          (err: unknown) => {
            observe(operation, (performance.now() - started) / 1000, false);
            throw err;
          },
        );
      };
    },
  });
}

/** `docker` with every call timed; `modem` and other properties are passed through as they are. */
export function timedDocker(docker: Docker, observe: DockerCallObserver): Docker {
  return timed(docker, 'engine', observe);
}

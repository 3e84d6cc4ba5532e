// One pull per image at a time: two purchases of one image on one node (or a purchase and a
// warm-up) share the pull, and each sees its progress from where it joined. A viewer that leaves
// does not stop the pull for the others; the pull stops when every viewer has left.
import type { ContainerClient, PullProgress, RegistryCredentials } from '../docker/container-client.js';
import { AgentError } from '../errors.js';

interface InFlight {
  done: Promise<void>;
  listeners: Set<(progress: PullProgress) => void>;
  /** Latest message per layer, replayed to a viewer that joins late. */
  layers: Map<string, PullProgress>;
  controller: AbortController;
  viewers: number;
}

export class ImagePuller {
  private readonly inFlight = new Map<string, InFlight>();

  constructor(private readonly client: ContainerClient) {}

  /** Resolves once the image is present (at once when it already is). */
  async pull(
    ref: string,
    auth: RegistryCredentials | undefined,
    onProgress: (progress: PullProgress) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    let pull = this.inFlight.get(ref);
    if (!pull) {
      if (await this.client.imageExists(ref)) return;
      pull = this.inFlight.get(ref) ?? this.start(ref, auth);
    }
    const current = pull;
    for (const layer of current.layers.values()) onProgress(layer);
    current.listeners.add(onProgress);
    current.viewers += 1;
    const leave = () => {
      current.listeners.delete(onProgress);
      current.viewers -= 1;
      if (current.viewers === 0) current.controller.abort();
    };
    try {
      await new Promise<void>((resolve, reject) => {
        current.done.then(resolve, reject);
        signal?.addEventListener(
          'abort',
          () => reject(new AgentError('CANCELLED', `pull image ${ref}: cancelled`)),
          {
            once: true,
          },
        );
      });
    } finally {
      leave();
    }
  }

  /** Images being pulled now. */
  pulling(): string[] {
    return [...this.inFlight.keys()];
  }

  private start(ref: string, auth: RegistryCredentials | undefined): InFlight {
    const pull: InFlight = {
      done: Promise.resolve(),
      listeners: new Set(),
      layers: new Map(),
      controller: new AbortController(),
      viewers: 0,
    };
    pull.done = this.client
      .pullImage(
        ref,
        auth,
        (progress) => {
          if (progress.id) pull.layers.set(progress.id, progress);
          for (const listener of pull.listeners) listener(progress);
        },
        pull.controller.signal,
      )
      .finally(() => this.inFlight.delete(ref));
    // Viewers handle the failure; this keeps an abandoned pull's failure from going unhandled.
    pull.done.catch(() => undefined);
    this.inFlight.set(ref, pull);
    return pull;
  }
}

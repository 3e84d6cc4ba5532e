// The percentage shown as 拉取镜像中 n%: from Docker's per-layer pull messages (relayed by the
// agent), the bytes downloaded and extracted of every layer whose size is known. Layers the node
// already has ("Already exists") weigh nothing; the figure never goes back and stays below 100
// until the image is present. The phase is 下载中 (downloading) while any layer still downloads,
// then 解压中 (extracting) while layers are unpacked.
import type { PullImageProgress__Output } from '@gpucloud/proto';

export type PullPhase = 'downloading' | 'extracting';

interface Layer {
  total: number;
  downloaded: number;
  extracted: number;
  /** Announced, waiting or downloading: not yet on the node. */
  fetching: boolean;
  /** Downloaded, not yet unpacked. */
  unpacking: boolean;
}

export class PullProgress {
  private readonly layers = new Map<string, Layer>();
  private best = 0;

  /** Where the pull is: downloading until no layer is left to fetch, then extracting. */
  get phase(): PullPhase {
    const layers = [...this.layers.values()];
    if (layers.some((l) => l.fetching)) return 'downloading';
    return layers.some((l) => l.unpacking) ? 'extracting' : 'downloading';
  }

  /** Takes one message; returns the percentage so far (0-99, 100 once done). */
  add(message: Pick<PullImageProgress__Output, 'id' | 'status' | 'current' | 'total' | 'done'>): number {
    if (message.done) {
      this.best = 100;
      return this.best;
    }
    if (!message.id) return this.best;
    const layer = this.layers.get(message.id) ?? {
      total: 0,
      downloaded: 0,
      extracted: 0,
      fetching: false,
      unpacking: false,
    };
    const current = Number(message.current) || 0;
    const total = Number(message.total) || 0;
    const status = message.status.toLowerCase();
    if (status.startsWith('pulling fs layer') || status.startsWith('waiting')) {
      layer.fetching = true;
    } else if (status.startsWith('downloading')) {
      layer.total = Math.max(layer.total, total);
      layer.downloaded = current;
      layer.fetching = true;
    } else if (status.startsWith('download complete') || status.startsWith('verifying')) {
      layer.downloaded = layer.total;
      layer.fetching = false;
      layer.unpacking = true;
    } else if (status.startsWith('extracting')) {
      layer.total = Math.max(layer.total, total);
      layer.downloaded = layer.total;
      layer.extracted = current;
      layer.fetching = false;
      layer.unpacking = true;
    } else if (status.startsWith('pull complete') || status.startsWith('already exists')) {
      layer.downloaded = layer.total;
      layer.extracted = layer.total;
      layer.fetching = false;
      layer.unpacking = false;
    }
    this.layers.set(message.id, layer);
    let done = 0;
    let all = 0;
    for (const l of this.layers.values()) {
      if (l.total <= 0) continue;
      all += 2 * l.total;
      done += Math.min(l.downloaded, l.total) + Math.min(l.extracted, l.total);
    }
    if (all > 0) this.best = Math.max(this.best, Math.min(99, Math.floor((100 * done) / all)));
    return this.best;
  }
}

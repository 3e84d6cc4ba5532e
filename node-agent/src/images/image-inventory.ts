// ListImages: what the node holds, for the control plane's warm images (admin 节点 → 镜像, the
// market's 秒级启动, and purchases that need no pull), with the disk Docker keeps them on.
import type { ContainerClient, ImageSummary } from '../docker/container-client.js';
import { diskSpace } from '../host/host-facts.js';
import type { ImagePuller } from './image-puller.js';

export interface ImageInventory {
  images: ImageSummary[];
  /** References being pulled now. */
  pulling: string[];
  /** The filesystem of Docker's data root; 0 when the agent cannot see it (another host). */
  diskTotalBytes: number;
  diskFreeBytes: number;
}

export class ImageInventoryReader {
  private dataRoot: Promise<string> | undefined;

  constructor(
    private readonly client: ContainerClient,
    private readonly puller: ImagePuller,
    private readonly log?: (line: string) => void,
  ) {}

  async read(): Promise<ImageInventory> {
    const [images, disk] = await Promise.all([this.client.listImages(), this.disk()]);
    return {
      // Images without a name (dangling layers of an old pull) are nobody's warm image.
      images: images.filter((image) => image.tags.length > 0),
      pulling: this.puller.pulling(),
      diskTotalBytes: disk.totalBytes,
      diskFreeBytes: disk.freeBytes,
    };
  }

  private async disk(): Promise<{ totalBytes: number; freeBytes: number }> {
    this.dataRoot ??= this.client.dataRoot();
    try {
      const root = await this.dataRoot;
      if (root) return await diskSpace(root);
    } catch (err) {
      // A remote engine's data root is not on this host; asked again next time.
      this.dataRoot = undefined;
      this.log?.(`disk of Docker's data root unknown: ${err instanceof Error ? err.message : String(err)}`);
    }
    return { totalBytes: 0, freeBytes: 0 };
  }
}

import type { RegistryAuth } from '@gpucloud/proto';
import type { AgentPool } from '../../agents/agent-pool.js';
import type { AuthUser } from '../../framework/auth.js';
import { AppError, badRequest, conflict, notFound, unavailable } from '../../framework/errors.js';
import { parse } from '../../framework/validate.js';
import { versionSchema } from '../catalogue/schema.js';
import type { CatalogueService } from '../catalogue/service.js';
import type { NodeRow } from '../nodes/repository.js';
import { compareImages } from './compare.js';
import type {
  AdminImageReply,
  ImageCompareReply,
  ImageDetailReply,
  ImageQuota,
  ImageReply,
  ImagesReply,
  SaveImageReply,
} from './contract.js';
import { dockerfile } from './dockerfile.js';
import type { ImageRegistry, RegistryGrant } from './registry.js';
import type { ImagesRepository, QuotaLimits, UserImageRow } from './repository.js';
import { grantToAuth, ImageSaver, MSG_SAVE_INTERRUPTED, PUSHED_TAG } from './save.js';
import type { PublishImageInput, SaveImageInput, UpdateImageInput } from './schema.js';

const GB = 1024 ** 3;
export const MSG_IMAGE_NOT_FOUND = '镜像不存在';
export const MSG_REGISTRY_OFF = '镜像仓库未配置';

/** The container a save starts from, as the containers module answers it (owner checked). */
export interface SourceContainer {
  id: string;
  name: string;
  image: string;
  status: string;
  framework_version_id: number | null;
}

export interface ImagesDeps {
  repo: ImagesRepository;
  /** The platform's registry; undefined while none is configured (REGISTRY off). */
  registry: () => ImageRegistry | undefined;
  /** The user's container and its node (404 for another user's, 409 while provisioning). */
  containers: { target(user: AuthUser, id: string): Promise<{ container: SourceContainer; node: NodeRow }> };
  /** Live containers made from these images (the containers module's). */
  imageUses(
    imageIds: number[],
  ): Promise<{ image_id: number; container_id: string; container_name: string }[]>;
  /** Which of these containers are not deleted. */
  liveContainers(ids: string[]): Promise<Set<string>>;
  catalogue: Pick<
    CatalogueService,
    'versionById' | 'frameworks' | 'createFramework' | 'createVersion' | 'adminFrameworks'
  >;
  nodes: { list(): Promise<NodeRow[]> };
  users: { usernames(ids: number[]): Promise<Map<number, string>>; findById(id: number): Promise<unknown> };
  agents: AgentPool;
  /** The quota of a user without an override (IMAGE_QUOTA_COUNT, IMAGE_QUOTA_GB). */
  quota: QuotaLimits;
  leaseMs: number;
  log: (message: string, err?: unknown) => void;
}

/** What a purchase from a saved image needs: the reference to pull and the pull grant for it. */
export interface CustomImageForPurchase {
  id: number;
  /** `<registry host>/<repository>@<digest>` */
  image: string;
  ports: Record<string, number | string>;
  extra_driver_capabilities: string[];
  auth: RegistryAuth;
}

/** 我的镜像: saving containers as images, listing, renaming, deleting, comparing, the quota. */
export class ImagesService {
  private readonly saver: ImageSaver;

  constructor(private readonly d: ImagesDeps) {
    this.saver = new ImageSaver({ repo: d.repo, agents: d.agents, leaseMs: d.leaseMs, log: d.log });
  }

  private registry(): ImageRegistry {
    const registry = this.d.registry();
    if (!registry) throw unavailable(MSG_REGISTRY_OFF, 'REGISTRY_OFF');
    return registry;
  }

  private reference(registry: ImageRegistry, row: UserImageRow): string {
    return `${registry.host}/${row.repository}@${row.digest}`;
  }

  // ------------------------------------------------------------------ save

  /** POST /api/containers/{id}/save-image: the row made, the save under way in the background. */
  async save(user: AuthUser, containerId: string, input: SaveImageInput): Promise<SaveImageReply> {
    // Another user's container is not found, registry or not.
    const { container, node } = await this.d.containers.target(user, containerId);
    const registry = this.registry();
    if (container.status !== 'running' && container.status !== 'stopped') {
      throw conflict('只能保存运行中或已停止的容器', 'CONTAINER_NOT_SAVABLE');
    }
    if (node.status === 'offline') throw unavailable('节点离线，暂时无法保存镜像', 'NODE_OFFLINE');
    if (await this.d.repo.savingFrom(container.id)) {
      throw conflict('该容器正在保存镜像，请等待完成后再试', 'IMAGE_SAVE_IN_PROGRESS');
    }
    const facts = await this.factsOf(user, container);
    const outcome = await this.d.repo.insertWithinQuota(
      {
        user_id: user.id,
        name: input.name,
        tag: input.tag,
        description: input.description,
        source_container_id: container.id,
        source_container_name: container.name,
        source_image: container.image,
        node_id: node.id,
        ports: facts.ports,
        extra_driver_capabilities: facts.extra_driver_capabilities,
        save_lease_until: new Date(Date.now() + this.d.leaseMs),
      },
      this.d.quota,
    );
    if ('refused' in outcome) {
      if (outcome.refused === 'taken')
        throw conflict(`镜像 ${input.name}:${input.tag} 已存在`, 'IMAGE_NAME_TAKEN');
      if (outcome.refused === 'count') {
        throw new AppError(403, 'IMAGE_QUOTA_EXCEEDED', `镜像数量已达上限（${outcome.limits.maxCount}个）`);
      }
      throw new AppError(
        403,
        'IMAGE_QUOTA_EXCEEDED',
        `镜像存储已达上限（${gb(outcome.limits.maxBytes)} GB）`,
      );
    }
    const { row } = outcome;
    const repository = registry.repositoryFor(user.id, row.id);
    await this.d.repo.setRepository(row.id, repository);
    this.saver.start({
      imageId: row.id,
      node,
      containerId: container.id,
      baseImage: container.image,
      description: input.description,
      target: `${registry.host}/${repository}`,
      auth: grantToAuth(registry.grant(repository, ['push', 'pull'])),
    });
    return { image_id: row.id };
  }

  /** The ports and driver needs a container made from the image gets: its source's. */
  private async factsOf(
    user: AuthUser,
    container: SourceContainer,
  ): Promise<{ ports: Record<string, number | string>; extra_driver_capabilities: string[] }> {
    if (container.framework_version_id !== null) {
      const v = await this.d.catalogue.versionById(container.framework_version_id);
      if (v) return { ports: v.ports, extra_driver_capabilities: v.extra_driver_capabilities };
    }
    // Made from a saved image: that image's.
    const digest = /@(sha256:[0-9a-f]{64})$/.exec(container.image)?.[1];
    const from = digest
      ? (await this.d.repo.listForUser(user.id)).find((r) => r.digest === digest)
      : undefined;
    return from
      ? { ports: from.ports, extra_driver_capabilities: from.extra_driver_capabilities }
      : { ports: { ssh: 22 }, extra_driver_capabilities: [] };
  }

  /** Saves left by a process that died (their lease ran out) become failed; at start-up. */
  async recoverAbandoned(now = new Date()): Promise<number> {
    const ids = await this.d.repo.failAbandoned(now, MSG_SAVE_INTERRUPTED);
    if (ids.length > 0) this.d.log(`image saves ${ids.join(', ')} were interrupted: marked failed`);
    return ids.length;
  }

  /** Shutdown: the saves of this process end (failed, 保存中断，请重试). */
  stop(): Promise<void> {
    return this.saver.stop();
  }

  /** Resolves once this process's saves are settled (tests). */
  settled(): Promise<void> {
    return this.saver.settled();
  }

  // ------------------------------------------------------------------ the user's images

  private async require(user: AuthUser, id: number): Promise<UserImageRow> {
    const row = await this.d.repo.findForUser(user.id, id);
    if (!row) throw notFound(MSG_IMAGE_NOT_FOUND, 'IMAGE_NOT_FOUND');
    return row;
  }

  private async views(rows: UserImageRow[]): Promise<ImageReply[]> {
    const [uses, live] = await Promise.all([
      this.d.imageUses(rows.map((r) => r.id)),
      this.d.liveContainers(rows.flatMap((r) => (r.source_container_id ? [r.source_container_id] : []))),
    ]);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      tag: r.tag,
      description: r.description,
      status: r.status,
      progress: r.status === 'ready' ? 100 : r.progress,
      error: r.error,
      size_bytes: r.size_bytes,
      created_at: r.created_at.toISOString(),
      source_container:
        r.source_container_id && live.has(r.source_container_id)
          ? { id: r.source_container_id, name: r.source_container_name }
          : null,
      source_image: r.source_image,
      digest: r.digest,
      in_use: uses
        .filter((u) => u.image_id === r.id)
        .map((u) => ({ id: u.container_id, name: u.container_name })),
    }));
  }

  private async quotaOf(userId: number): Promise<ImageQuota> {
    const [limits, use] = await Promise.all([this.limits(userId), this.d.repo.usage(userId)]);
    return { count: use.count, max_count: limits.maxCount, bytes: use.bytes, max_bytes: limits.maxBytes };
  }

  private async limits(userId: number): Promise<QuotaLimits> {
    return (await this.d.repo.quotaOverride(userId)) ?? this.d.quota;
  }

  /** GET /api/images/mine: the user's images, newest first, and the quota against use. */
  async list(user: AuthUser): Promise<ImagesReply> {
    const [rows, quota] = await Promise.all([this.d.repo.listForUser(user.id), this.quotaOf(user.id)]);
    return { quota, images: await this.views(rows) };
  }

  async detail(user: AuthUser, id: number): Promise<ImageDetailReply> {
    const row = await this.require(user, id);
    const [view] = await this.views([row]);
    return { ...(view as ImageReply), contents: row.contents };
  }

  async update(user: AuthUser, id: number, input: UpdateImageInput): Promise<ImageReply> {
    const row = await this.require(user, id);
    const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    if (Object.keys(patch).length > 0 && !(await this.d.repo.update(user.id, id, patch))) {
      throw conflict(`镜像 ${input.name ?? row.name}:${input.tag ?? row.tag} 已存在`, 'IMAGE_NAME_TAKEN');
    }
    const [view] = await this.views([{ ...row, ...patch }]);
    return view as ImageReply;
  }

  /**
   * DELETE /api/images/{id}: refused while a live container uses it; else gone from the registry
   * (required) and from the nodes (best effort: a node that keeps a copy only holds disk).
   */
  async remove(user: AuthUser, id: number): Promise<void> {
    const row = await this.require(user, id);
    if (row.status === 'saving') throw conflict('镜像正在保存中，请等待完成后再删除', 'IMAGE_SAVING');
    const [use] = await this.d.imageUses([id]);
    if (use) {
      throw conflict(`镜像正在被容器 ${use.container_name} 使用，请先释放该容器`, 'IMAGE_IN_USE');
    }
    if (row.digest) {
      const registry = this.registry();
      try {
        await registry.deleteImage(row.repository, row.digest);
      } catch (err) {
        this.d.log(`image ${id} not deleted from the registry`, err);
        throw new AppError(503, 'REGISTRY_UNAVAILABLE', '镜像仓库暂时无法删除该镜像，请稍后重试', {
          cause: err,
        });
      }
      await this.d.repo.markDeleted(id);
      void this.removeFromNodes([
        this.reference(registry, row),
        `${registry.host}/${row.repository}:${PUSHED_TAG}`,
      ]);
      return;
    }
    await this.d.repo.markDeleted(id);
  }

  private async removeFromNodes(refs: string[]): Promise<void> {
    const nodes = (await this.d.nodes.list().catch(() => [])).filter((n) => n.status !== 'offline');
    await Promise.all(
      nodes.flatMap((node) =>
        refs.map((ref) =>
          this.d.agents
            .get(node)
            .removeImage(ref, 30_000)
            .catch((err) => this.d.log(`image ${ref} not removed from node ${node.name}`, err)),
        ),
      ),
    );
  }

  async compare(user: AuthUser, a: number, b: number): Promise<ImageCompareReply> {
    const [x, y] = await Promise.all([this.require(user, a), this.require(user, b)]);
    return compareImages(x, y);
  }

  /** GET /api/images/{id}/dockerfile: text that rebuilds the environment from its base. */
  async dockerfile(user: AuthUser, id: number): Promise<string> {
    const row = await this.require(user, id);
    if (row.status !== 'ready' || !row.contents) throw conflict('镜像尚未保存完成', 'IMAGE_NOT_READY');
    return dockerfile(row, row.contents);
  }

  // ------------------------------------------------------------------ purchases

  /** The user's ready image as a purchase pulls it, with a pull grant for exactly its repository. */
  async forPurchase(userId: number, imageId: number): Promise<CustomImageForPurchase> {
    const row = await this.d.repo.findForUser(userId, imageId);
    if (!row) throw badRequest(MSG_IMAGE_NOT_FOUND, 'IMAGE_NOT_FOUND');
    if (row.status !== 'ready' || !row.digest) throw badRequest('镜像尚未保存完成', 'IMAGE_NOT_READY');
    const registry = this.registry();
    return {
      id: row.id,
      image: this.reference(registry, row),
      ports: row.ports,
      extra_driver_capabilities: row.extra_driver_capabilities,
      auth: grantToAuth(registry.grant(row.repository, ['pull'])),
    };
  }

  /** A pull grant for a catalogue version published from a saved image; undefined for others. */
  async catalogueGrant(frameworkVersionId: number): Promise<RegistryGrant | undefined> {
    const row = await this.d.repo.publishedImage(frameworkVersionId);
    const registry = this.d.registry();
    if (!row || !registry || !row.repository) return undefined;
    return registry.grant(row.repository, ['pull']);
  }

  /**
   * A pull grant for an image reference of the platform's registry that an admin published (a
   * warm-up names the catalogue version's reference); undefined for any other reference.
   */
  async publishedReferenceGrant(reference: string): Promise<RegistryGrant | undefined> {
    const registry = this.d.registry();
    if (!registry || !reference.startsWith(`${registry.host}/`)) return undefined;
    const repository = reference.slice(registry.host.length + 1).split(/[@:]/)[0] ?? '';
    const row = await this.d.repo.publishedByRepository(repository);
    return row ? registry.grant(row.repository, ['pull']) : undefined;
  }

  // ------------------------------------------------------------------ administration

  /** GET /api/admin/images/saved: every user's images with their owner and publication. */
  async adminList(): Promise<AdminImageReply[]> {
    const rows = await this.d.repo.listAll();
    const [views, names, links, frameworks] = await Promise.all([
      this.views(rows),
      this.d.users.usernames([...new Set(rows.map((r) => r.user_id))]),
      this.d.repo.publications(rows.map((r) => r.id)),
      this.d.catalogue.adminFrameworks(),
    ]);
    const versions = new Map(
      frameworks.flatMap((f) =>
        f.versions.map((v) => [v.id, { framework: f.name, version: v.version }] as const),
      ),
    );
    return views.map((view, i) => {
      const row = rows[i] as UserImageRow;
      const link = links.find((l) => l.image_id === row.id && versions.has(l.framework_version_id));
      return {
        ...view,
        user: { id: row.user_id, username: names.get(row.user_id) ?? '' },
        published: link ? (versions.get(link.framework_version_id) ?? null) : null,
      };
    });
  }

  /**
   * POST /api/admin/images/{id}/publish: a catalogue framework version whose image is the
   * registry reference (a framework named that is made when there is none).
   */
  async publish(id: number, input: PublishImageInput): Promise<AdminImageReply> {
    const row = await this.d.repo.find(id);
    if (!row) throw notFound(MSG_IMAGE_NOT_FOUND, 'IMAGE_NOT_FOUND');
    if (row.status !== 'ready' || !row.digest) throw conflict('镜像尚未保存完成', 'IMAGE_NOT_READY');
    const registry = this.registry();
    const frameworks = await this.d.catalogue.frameworks();
    let frameworkId: number;
    if (typeof input.framework === 'number') {
      if (!frameworks.some((f) => f.id === input.framework))
        throw notFound('框架不存在', 'FRAMEWORK_NOT_FOUND');
      frameworkId = input.framework;
    } else {
      const name = input.framework;
      frameworkId =
        frameworks.find((f) => f.name === name)?.id ??
        (await this.d.catalogue.createFramework({ name, ports: numericPorts(row.ports) })).id;
    }
    const version = await this.d.catalogue.createVersion(
      frameworkId,
      parse(versionSchema, {
        version: input.version,
        image: this.reference(registry, row),
        cuda_version: row.contents?.cuda ?? '',
        system_type: 'ubuntu',
        ports: row.ports,
        mounts: [],
        extra_driver_capabilities: row.extra_driver_capabilities,
      }),
    );
    await this.d.repo.publish(id, version.id);
    const [view] = (await this.adminList()).filter((v) => v.id === id);
    return view as AdminImageReply;
  }

  /** PUT /api/admin/users/{id}/image-quota */
  async setQuota(userId: number, input: { max_count: number; max_gb: number }): Promise<ImageQuota> {
    if (!(await this.d.users.findById(userId))) throw notFound('用户不存在', 'USER_NOT_FOUND');
    await this.d.repo.setQuota(userId, {
      maxCount: input.max_count,
      maxBytes: Math.round(input.max_gb * GB),
    });
    return this.quotaOf(userId);
  }
}

const gb = (bytes: number) => Math.round((bytes / GB) * 100) / 100;

const numericPorts = (ports: Record<string, number | string>): Record<string, number> =>
  Object.fromEntries(Object.entries(ports).filter((e): e is [string, number] => typeof e[1] === 'number'));

import { agentError } from '../../agents/agent-errors.js';
import type { AgentPool } from '../../agents/agent-pool.js';
import type { AuthUser } from '../../framework/auth.js';
import { badRequest } from '../../framework/errors.js';
import { fenToYuan, yuanToFen } from '../../framework/money.js';
import { parse } from '../../framework/validate.js';
import type { CatalogueService } from '../catalogue/service.js';
import type { CloudProductsService } from '../cloud-products/service.js';
import type { ContainerConfigService } from '../containers/config-service.js';
import type { PurchaseService } from '../containers/purchase-service.js';
import { purchaseSchema } from '../containers/schema.js';
import type { ContainersService } from '../containers/service.js';
import type { ImagesService } from '../images/service.js';
import { totalPriceFen } from '../pricing/pricing.js';
import type { McpContainerListReply, McpCreatedReply } from './contract.js';
import { readRecentLogs } from './logs.js';
import { MCP_IMAGES, type McpCreateInput, type McpStatus, MSG_REQUIRED } from './schema.js';
import { type McpContainerView, mcpContainerView } from './view.js';

/** The balance of a user, from the billing module. */
export interface Balances {
  balance(userId: number): Promise<{ balance: number; alert_threshold: number }>;
}

export interface McpDeps {
  containers: ContainersService;
  purchases: PurchaseService;
  containerConfig: ContainerConfigService;
  catalogue: CatalogueService;
  products: CloudProductsService;
  agents: AgentPool;
  balances: Balances;
  /** The user's saved images (我的镜像). */
  images: Pick<ImagesService, 'list'>;
}

export interface McpMyImage {
  image_id: number;
  name: string;
  tag: string;
  description: string;
  size_gb: number;
  source_image: string;
  created_at: string;
}

export interface McpImage {
  name: string;
  image: string;
  system_type: 'ubuntu' | 'windows';
  framework_id: number;
  version_id: number;
}

/** The answer of a creation: the container and whether its root password is in place. */
export type McpCreated = McpCreatedReply;

/** Cloud products as the MCP server lists them: where GPUs are free and at what price. */
export interface McpServerOffer {
  product_id: number;
  name: string;
  region: string;
  gpu_type: string;
  gpu_available: number;
  gpu_total: number;
  /** Yuan per GPU hour (hourly billing). */
  price_per_gpu_hour: number;
  /** Yuan per hour while running without GPUs (无卡模式). */
  no_gpu_price_per_hour: number;
  cpu_model: string;
  cpu_cores: number;
  memory: string;
  disk_size: string;
  system_type: string;
  status: string;
  simulated: boolean;
}

/**
 * The container API behind the MCP dashboard and the MCP server. It adds nothing to the rules of
 * the console: creation is a console purchase (hourly billing, price, balance, allocation), and
 * every other action is the containers module's.
 */
export class McpService {
  constructor(private readonly d: McpDeps) {}

  async list(user: AuthUser, status?: McpStatus): Promise<McpContainerListReply> {
    const { items } =
      status === 'deleted'
        ? await this.d.containers.listAll({ userId: user.id, status: 'deleted', page: 1, size: 200 })
        : await this.d.containers.listForUser(user);
    const names = await this.imageNames();
    const views = items.map((c) => mcpContainerView(c, names)).filter((c) => !status || c.status === status);
    return { items: views, total: views.length };
  }

  async get(user: AuthUser, id: string): Promise<McpContainerView> {
    return mcpContainerView(await this.d.containers.get(user, id), await this.imageNames());
  }

  /** A console purchase on hourly billing, then the requested root password. */
  async create(user: AuthUser, input: McpCreateInput): Promise<McpCreated> {
    if (input.image_name !== undefined && input.image_id !== undefined) {
      throw badRequest('image_name 与 image_id 只能填写一个', 'IMAGE_AMBIGUOUS');
    }
    let image: Record<string, unknown>;
    if (input.image_id !== undefined) {
      // 我的镜像: the purchase checks it is the user's and saved.
      image = { imageType: 'custom', customImageId: input.image_id };
    } else {
      if (input.image_name === undefined) throw badRequest(MSG_REQUIRED, 'VALIDATION_FAILED');
      const named = await this.resolveImage(input.image_name);
      image = { framework: named.framework_id, frameworkVersion: named.version_id };
    }
    const product = await this.d.products.get(input.product_id);
    const total = totalPriceFen({
      unitPriceFen: yuanToFen(product.price),
      gpuCount: input.gpu_count,
      billingType: 'hourly',
      duration: 1,
    });
    // Through the purchase schema, so the purchase gets the defaults the console's would.
    const purchase = parse(purchaseSchema, {
      instanceName: input.name,
      gpuCount: input.gpu_count,
      ...image,
      agreeTerms: true,
      billing_type: 'hourly',
      duration: 1,
      total_price: fenToYuan(total),
    });
    // The password is the container's from the start: set by the node as it starts it.
    const bought = await this.d.purchases.purchase(user, input.product_id, purchase, {
      rootPassword: input.password,
    });
    const view = await this.get(user, bought.container_id);
    return { ...view, password_set: true };
  }

  async start(user: AuthUser, id: string, noGpu = false): Promise<McpContainerView> {
    await this.d.containers.start(user, id, { noGpu });
    return this.get(user, id);
  }

  async stop(user: AuthUser, id: string): Promise<McpContainerView> {
    await this.d.containers.stop(user, id);
    return this.get(user, id);
  }

  async destroy(user: AuthUser, id: string): Promise<void> {
    await this.d.containers.destroy(user, id);
  }

  async resetPassword(user: AuthUser, id: string, password: string): Promise<void> {
    await this.d.containerConfig.resetPassword(user, id, password);
  }

  /** The last `tail` lines of the container's log as text. */
  async logs(user: AuthUser, id: string, tail: number): Promise<string> {
    const { container, node } = await this.d.containers.target(user, id);
    try {
      return await readRecentLogs(this.d.agents.get(node), container.id, tail);
    } catch (err) {
      throw agentError(err, '获取日志失败');
    }
  }

  balance(user: AuthUser) {
    return this.d.balances.balance(user.id);
  }

  /** Cloud products (servers) with their free GPUs and prices; `available` only by default. */
  async servers(filter: { availableOnly?: boolean; gpuCount?: number } = {}): Promise<McpServerOffer[]> {
    const products = await this.d.products.list({
      status: filter.availableOnly === false ? undefined : 'available',
      gpuCount: filter.gpuCount,
    });
    return products.map((p) => ({
      product_id: p.id,
      name: p.name,
      region: p.region,
      gpu_type: p.gpu_type,
      gpu_available: p.gpu_available,
      gpu_total: p.gpu_total,
      price_per_gpu_hour: p.price,
      no_gpu_price_per_hour: p.no_gpu_price,
      cpu_model: p.cpu_model,
      cpu_cores: p.cpu_cores,
      memory: p.memory,
      disk_size: p.disk_size,
      system_type: String(p.server_config.system_gpu_type ?? 'ubuntu'),
      status: p.status,
      simulated: p.simulated,
    }));
  }

  /** The images the dashboard offers, with what they run. */
  /** The user's saved images that can be started (create_container's image_id). */
  async myImages(user: AuthUser): Promise<McpMyImage[]> {
    const { images } = await this.d.images.list(user);
    return images
      .filter((i) => i.status === 'ready')
      .map((i) => ({
        image_id: i.id,
        name: i.name,
        tag: i.tag,
        description: i.description,
        size_gb: Math.round((i.size_bytes / 1024 ** 3) * 100) / 100,
        source_image: i.source_image,
        created_at: i.created_at,
      }));
  }

  async images(): Promise<McpImage[]> {
    const all = await this.catalogueImages();
    return MCP_IMAGES.flatMap((name) => all.filter((i) => i.name === name));
  }

  /**
   * The framework version an `image_name` names: a catalogue image's name (the dashboard's two,
   * or any other of the app market), or the image reference of a framework version.
   */
  async resolveImage(imageName: string): Promise<McpImage> {
    const wanted = imageName.trim();
    const all = await this.catalogueImages();
    const found = all.find((i) => i.name === wanted) ?? all.find((i) => i.image === wanted);
    if (found) return found;
    const frameworks = await this.d.catalogue.adminFrameworks();
    for (const f of frameworks) {
      const v = f.versions.find((x) => x.image === wanted);
      if (v) {
        return {
          name: v.image,
          image: v.image,
          system_type: v.system_type,
          framework_id: f.id,
          version_id: v.id,
        };
      }
    }
    throw badRequest(`不支持的镜像：${wanted}，可选镜像：${MCP_IMAGES.join('、')}`, 'IMAGE_NOT_FOUND');
  }

  private async catalogueImages(): Promise<McpImage[]> {
    const [images, frameworks] = await Promise.all([
      this.d.catalogue.images(),
      this.d.catalogue.adminFrameworks(),
    ]);
    const versions = new Map(frameworks.flatMap((f) => f.versions.map((v) => [v.id, v] as const)));
    const out: McpImage[] = [];
    for (const i of images) {
      const v = versions.get(i.framework_version_id);
      if (v) {
        out.push({
          name: i.name,
          image: v.image,
          system_type: v.system_type,
          framework_id: v.framework_id,
          version_id: v.id,
        });
      }
    }
    return out;
  }

  /** Image reference → the name a person knows it by (the dashboard's images first). */
  private async imageNames(): Promise<(image: string) => string> {
    const images = await this.catalogueImages();
    const rank = (name: string) => {
      const i = (MCP_IMAGES as readonly string[]).indexOf(name);
      return i < 0 ? MCP_IMAGES.length : i;
    };
    images.sort((a, b) => rank(a.name) - rank(b.name));
    return (image) => images.find((i) => i.image === image)?.name ?? image;
  }
}

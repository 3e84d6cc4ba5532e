import type { AuthUser } from '../../framework/auth.js';
import { conflict, notFound } from '../../framework/errors.js';
import { parse } from '../../framework/validate.js';
import type { CatalogueService } from '../catalogue/service.js';
import type { CloudProductsService, CloudProductView } from '../cloud-products/service.js';
import type { PurchaseReply } from '../containers/contract.js';
import type { PurchaseService } from '../containers/purchase-service.js';
import { purchaseSchema } from '../containers/schema.js';
import { totalPriceFen } from '../pricing/pricing.js';
import type { DeployQuoteReply, DeployReply } from './contract.js';
import type { DeployInput, DeployQuoteQuery } from './schema.js';

/** The app market's GPU choices and how cloud products name them. */
const GPU_MODELS: Record<DeployInput['gpu_type'], RegExp> = {
  rtx4090: /rtx\s*4090/i,
  a100: /a100/i,
};

/**
 * Picks an available server that fits (one whose node holds the image first, then the cheapest),
 * then buys an hourly instance of the image on it.
 */
export class AppsService {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly products: CloudProductsService,
    private readonly purchases: PurchaseService,
  ) {}

  /**
   * The server a deploy of these choices would use now (so the drawer shows its price before
   * anything is charged); 409 when none fits.
   */
  async quote(input: DeployQuoteQuery): Promise<DeployQuoteReply> {
    return (await this.pick(input)).product;
  }

  private async pick(input: DeployQuoteQuery) {
    const image = await this.catalogue.image(input.image_id);
    const version = await this.catalogue.versionById(image.framework_version_id);
    if (!version) throw notFound('镜像的框架版本不存在');
    const windows = version.system_type === 'windows';
    const candidates = (await this.products.list({ status: 'available' }))
      .filter((p) => GPU_MODELS[input.gpu_type].test(p.gpu_type))
      .filter((p) => p.gpu_available >= input.gpuCount)
      .filter((p) => (p.server_config.system_gpu_type === 'windows') === windows)
      // A server whose node holds the image starts at once: it goes first, then the cheapest.
      .sort(
        (a, b) =>
          Number(b.warm_version_ids.includes(version.id)) - Number(a.warm_version_ids.includes(version.id)) ||
          a.price - b.price,
      );
    const product: CloudProductView | undefined = candidates[0];
    if (!product) throw conflict('暂无满足条件的服务器，请更换 GPU 型号或减少数量', 'NO_MATCHING_SERVER');
    return { product, version };
  }

  /**
   * Buys an hour of the quoted server, as a purchase: the user agreed to the terms and saw the
   * total (`total_price`); the purchase refuses a total that differs from its own (价格已变化).
   */
  async deploy(user: AuthUser, input: DeployInput, idempotencyKey: string | undefined) {
    const { product, version } = await this.pick(input);
    const totalFen = totalPriceFen({
      unitPriceFen: Math.round(product.price * 100),
      gpuCount: input.gpuCount,
      billingType: 'hourly',
      duration: 1,
    });
    const purchase = parse(purchaseSchema, {
      instanceName: input.instanceName,
      gpuCount: input.gpuCount,
      framework: version.framework_id,
      frameworkVersion: version.id,
      agreeTerms: input.agreeTerms,
      billing_type: 'hourly',
      duration: 1,
      total_price: input.total_price,
      env: Object.fromEntries(input.env.map((e) => [e.key, e.value])),
    });
    const answer = await this.purchases.purchaseOnce(user, product.id, purchase, idempotencyKey);
    return {
      status: answer.status,
      body:
        answer.status < 300
          ? ({
              ...(answer.body as PurchaseReply),
              product_id: product.id,
              total_price: totalFen / 100,
            } satisfies DeployReply)
          : answer.body,
    };
  }
}

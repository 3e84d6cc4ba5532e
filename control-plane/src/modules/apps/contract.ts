// The app market's reply (立即部署), written once: the service is typed by it and the console
// imports its type (src/api.ts). Only zod here.
import { z } from 'zod';
import { cloudProductReply } from '../cloud-products/contract.js';
import { purchaseReply } from '../containers/contract.js';

/** POST /api/apps/deploy (201): the purchase's answer, with the server chosen and the price. */
export const deployReply = purchaseReply.extend({ product_id: z.number(), total_price: z.number() });
export type DeployReply = z.infer<typeof deployReply>;

/**
 * GET /api/apps/deploy-quote: the server a deploy of the chosen GPU model and count would use now;
 * the console shows its price (per GPU per hour, and the hour's total) before the user agrees.
 */
export const deployQuoteReply = cloudProductReply;
export type DeployQuoteReply = z.infer<typeof deployQuoteReply>;

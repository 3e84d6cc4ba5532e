// The app market's reply (立即部署), written once: the service is typed by it and the console
// imports its type (src/api.ts). Only zod here.
import { z } from 'zod';
import { purchaseReply } from '../containers/contract.js';

/** POST /api/apps/deploy (201): the purchase's answer, with the server chosen and the price. */
export const deployReply = purchaseReply.extend({ product_id: z.number(), total_price: z.number() });
export type DeployReply = z.infer<typeof deployReply>;

import type { PaymentsRepository } from './payments-repository.js';
import type { PayProvider, TradeQuery } from './wechat-pay.js';

/**
 * WeChat Pay without credentials: the QR code leads to the console's sandbox payment page
 * (/pay/sandbox/{out_trade_no}); its button pays, after which the query answers SUCCESS. The
 * sandbox's own state is the payment row (any replica answers the same).
 */
export class SandboxPayProvider implements PayProvider {
  readonly kind = 'sandbox';

  constructor(
    private readonly payments: PaymentsRepository,
    private readonly publicUrl: string | undefined,
  ) {}

  async createNative(order: { outTradeNo: string }) {
    return { codeUrl: `${this.publicUrl ?? ''}/pay/sandbox/${order.outTradeNo}` };
  }

  async query(outTradeNo: string): Promise<TradeQuery> {
    const p = await this.payments.findByTradeNo(outTradeNo);
    if (!p) return { tradeState: 'NOTPAY' };
    return {
      tradeState: p.trade_state,
      transactionId: p.transaction_id ?? undefined,
      amountFen: p.amount_fen,
    };
  }

  async close(): Promise<void> {}
}

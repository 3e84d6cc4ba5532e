import { badRequest, conflict, notFound } from '../../framework/errors.js';
import type { InvoiceListReply, InvoiceReply } from './contract.js';
import type { InvoiceRow, InvoiceStatus, InvoicesRepository } from './invoices-repository.js';
import { businessNo, iso, yuan } from './numbers.js';
import { INVOICEABLE_STATUSES, type OrdersRepository } from './orders-repository.js';
import { type BillingUsers, withUsernames } from './ports.js';

export type { InvoiceRow, InvoiceStatus } from './invoices-repository.js';

type InvoiceWithOrder = InvoiceRow & { order_no: string; username?: string; product_name?: string };

export function invoiceView(i: InvoiceWithOrder): InvoiceReply {
  return {
    id: i.id,
    invoice_no: i.invoice_no,
    title: i.title,
    tax_no: i.tax_no,
    amount: yuan(i.amount_fen),
    status: i.status,
    create_time: i.created_at.toISOString(),
    issued_at: iso(i.issued_at),
    order_id: i.order_id,
    order_no: i.order_no,
    ...(i.username !== undefined ? { username: i.username } : {}),
  };
}

/** Invoices (发票): applied for on an order (≤ its paid amount not yet invoiced), issued by admins. */
export class InvoicesService {
  constructor(
    private readonly repo: InvoicesRepository,
    private readonly orders: OrdersRepository,
    private readonly users: Pick<BillingUsers, 'usernames'>,
  ) {}

  /** One invoice with its order's number and product, and its owner's username. */
  private async find(id: number): Promise<InvoiceWithOrder | undefined> {
    const row = await this.repo.find(id);
    return row ? (await withUsernames(this.users, [row]))[0] : undefined;
  }

  async list(filter: {
    userId?: number;
    page: number;
    pageSize: number;
    status?: InvoiceStatus | undefined;
  }): Promise<InvoiceListReply> {
    const { items, total } = await this.repo.page({
      userId: filter.userId,
      status: filter.status,
      offset: (filter.page - 1) * filter.pageSize,
      limit: filter.pageSize,
    });
    return { items: (await withUsernames(this.users, items)).map(invoiceView), total };
  }

  async apply(userId: number, p: { orderId: number; title: string; taxNo: string; amountFen: number }) {
    const id = await this.repo.transaction(async (trx) => {
      // The order row is locked so two applications cannot both take the same amount.
      const order = await this.orders.lock(trx, p.orderId);
      if (!order || order.user_id !== userId) throw notFound('订单不存在', 'ORDER_NOT_FOUND');
      if (!INVOICEABLE_STATUSES.includes(order.status)) {
        throw conflict('该订单暂不可开票', 'ORDER_NOT_INVOICEABLE');
      }
      const left = order.amount_fen - (await this.repo.invoicedFen(trx, p.orderId));
      if (p.amountFen <= 0) throw badRequest('开票金额必须大于0', 'INVOICE_AMOUNT');
      if (p.amountFen > left)
        throw badRequest(`开票金额不能超过可开票金额 ${(left / 100).toFixed(2)} 元`, 'INVOICE_AMOUNT');
      return this.repo.insert(trx, {
        invoice_no: businessNo('I'),
        user_id: userId,
        order_id: p.orderId,
        title: p.title,
        tax_no: p.taxNo,
        amount_fen: p.amountFen,
      });
    });
    return this.get(userId, id);
  }

  async get(userId: number | undefined, id: number) {
    const row = await this.find(id);
    if (!row || (userId !== undefined && row.user_id !== userId))
      throw notFound('发票不存在', 'INVOICE_NOT_FOUND');
    return invoiceView(row);
  }

  /** The user may cancel a pending invoice (PUT /api/invoices/{id} {status: 'cancelled'}). */
  async setStatus(userId: number, id: number, status: InvoiceStatus) {
    if (status !== 'cancelled') throw badRequest('只能取消发票申请', 'INVOICE_STATUS');
    if (!(await this.repo.cancelPending(userId, id))) {
      await this.get(userId, id);
      throw conflict('只能取消待开具的发票', 'INVOICE_NOT_PENDING');
    }
    return this.get(userId, id);
  }

  async issue(adminId: number, id: number) {
    if (!(await this.repo.issuePending(id, adminId, new Date()))) {
      await this.get(undefined, id);
      throw conflict('只能开具待开具的发票', 'INVOICE_NOT_PENDING');
    }
    return this.get(undefined, id);
  }

  /** The issued invoice as a document (HTML, printable to PDF by the browser). */
  async document(userId: number | undefined, id: number): Promise<{ filename: string; html: string }> {
    const row = await this.find(id);
    if (!row || (userId !== undefined && row.user_id !== userId))
      throw notFound('发票不存在', 'INVOICE_NOT_FOUND');
    if (row.status !== 'issued') throw conflict('发票尚未开具', 'INVOICE_NOT_ISSUED');
    return { filename: `invoice-${row.invoice_no}.html`, html: invoiceDocument(row) };
  }
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function invoiceDocument(i: InvoiceWithOrder): string {
  const rows: [string, string][] = [
    ['发票号码', i.invoice_no],
    ['开票日期', (i.issued_at ?? i.created_at).toISOString().slice(0, 10)],
    ['购买方名称', i.title],
    ['纳税人识别号', i.tax_no],
    ['项目', `GPU 云服务（订单 ${i.order_no}${i.product_name ? `，${i.product_name}` : ''}）`],
    ['金额（元）', (i.amount_fen / 100).toFixed(2)],
  ];
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>发票 ${escapeHtml(i.invoice_no)}</title>
<style>body{font-family:"Noto Sans CJK SC","Microsoft YaHei",sans-serif;margin:40px;color:#222}
h1{text-align:center;color:#a61d24;letter-spacing:8px}table{border-collapse:collapse;width:100%;margin-top:24px}
td{border:1px solid #a61d24;padding:10px 14px}td:first-child{width:160px;color:#a61d24}
footer{margin-top:32px;text-align:right;color:#666}</style></head>
<body><h1>电子发票</h1><table>
${rows.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join('\n')}
</table><footer>销售方：GPU 云平台</footer></body></html>
`;
}

export interface Balance {
  balance: number;
  alert_threshold: number;
}

export interface Statistics {
  total_expense: number;
  total_recharge: number;
  available_coupons: number;
}

export interface CreatedPayment {
  out_trade_no: string;
  code_url: string;
  amount: number;
  provider: 'wechat' | 'sandbox';
}

export interface BillingRecord {
  id: string;
  source: 'ledger' | 'payment' | 'order';
  create_time: string;
  type: 'expense' | 'recharge' | 'refund';
  description: string;
  duration: number | null;
  amount: number;
  payment_method: string;
  status: 'success' | 'pending' | 'failed';
  out_trade_no: string | null;
  code_url: string | null;
  order_id: number | null;
}

export interface RecordQuery {
  page: number;
  size: number;
  type: 'all' | 'expense' | 'recharge';
  startDate?: string | undefined;
  endDate?: string | undefined;
}

export interface PayAnswer {
  order_id: number;
  status: 'paid' | 'pending';
  amount: number;
  payment?: CreatedPayment;
}

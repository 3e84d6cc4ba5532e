export type OrderStatus = 'pending' | 'paid' | 'cancelled' | 'completed' | 'running' | 'stopped';

export interface Order {
  id: number;
  order_id: string;
  container_id: string;
  create_time: string;
  product_type: string;
  product_name: string;
  order_type: 'purchase' | 'renewal';
  billing_method: string;
  unit_price: number;
  duration: number;
  usage_duration: number;
  amount: number;
  discount: number;
  invoiced_amount: number;
  invoiceable_amount: number;
  status: OrderStatus;
  container_server_name: string;
  container_gpu_type: string;
  container_gpu_count: number;
  container_region: string;
  start_time: string | null;
  end_time: string | null;
  paid_at: string | null;
}

export interface Transaction {
  id: number;
  create_time: string;
  type: '收入' | '支出';
  amount: number;
  balance_after: number;
  description: string;
  order_id: string | null;
}

/** Order statuses of the spec (§4) with their tags. */
export const ORDER_STATUS: Record<OrderStatus, { label: string; color: string }> = {
  pending: { label: '待付款', color: 'warning' },
  paid: { label: '已付款', color: 'processing' },
  cancelled: { label: '已取消', color: 'default' },
  completed: { label: '已完成', color: 'success' },
  running: { label: '使用中', color: 'success' },
  stopped: { label: '已停止', color: 'default' },
};

export const ORDER_TYPE_LABELS: Record<string, string> = { purchase: '新购', renewal: '续费' };
export const PAGE_SIZES = [10, 20, 50, 100];

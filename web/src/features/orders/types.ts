import type { OrderStatus } from '@gpucloud/control-plane/api';

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

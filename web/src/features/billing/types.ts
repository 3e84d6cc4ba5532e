// Balance, records and payments are the control plane's types (@gpucloud/control-plane/api).

export interface RecordQuery {
  page: number;
  size: number;
  type: 'all' | 'expense' | 'recharge';
  startDate?: string | undefined;
  endDate?: string | undefined;
}

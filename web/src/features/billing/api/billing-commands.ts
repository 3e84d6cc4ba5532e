import type {
  Balance,
  CreatedPayment,
  PayAnswer,
  PaymentClosed,
  TradeState,
} from '@gpucloud/control-plane/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { billingKeys } from '../../../lib/query-keys';

export function createWechatPayment(input: { amount: number; description?: string }) {
  return api.post<CreatedPayment>('/api/billing/wechat/create', {
    amount: input.amount,
    payment_method: 'wechat',
    description: input.description ?? '账户充值',
  });
}

export function queryWechatPayment(outTradeNo: string, signal?: AbortSignal) {
  return api.get<TradeState>('/api/billing/wechat/query', {
    params: { out_trade_no: outTradeNo },
    signal,
  });
}

export function cancelWechatPayment(outTradeNo: string) {
  return api.post<PaymentClosed>('/api/billing/wechat/cancel', {
    out_trade_no: outTradeNo,
  });
}

export function payOrder(input: { orderId: number; method: 'balance' | 'wechat' }) {
  return api.post<PayAnswer>(`/api/orders/${input.orderId}/pay`, { payment_method: input.method });
}

/** Everything money-related is refreshed after a payment (balance, records, orders, coupons). */
export function useInvalidateMoney() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: billingKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['orders'] }),
      queryClient.invalidateQueries({ queryKey: ['containers'] }),
    ]);
}

export function useSetAlertThreshold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (threshold: number) => api.post<Balance>('/api/billing/alert-threshold', { threshold }),
    onSuccess: (balance) => queryClient.setQueryData(billingKeys.balance(), balance),
  });
}

export function useCreateWechatPayment() {
  return useMutation({ mutationFn: createWechatPayment });
}

export function usePayOrder() {
  const invalidate = useInvalidateMoney();
  return useMutation({ mutationFn: payOrder, onSuccess: () => void invalidate() });
}

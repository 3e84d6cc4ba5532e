import { Alert, Descriptions, Drawer, Skeleton, Tag } from 'antd';
import { billingTypeLabel } from '../../../lib/billing-types';
import { formatDateTime } from '../../../lib/format';
import { useOrder } from '../api/orders';
import { ORDER_STATUS, ORDER_TYPE_LABELS } from '../types';

export function OrderDetailDrawer({ orderId, onClose }: { orderId: number | null; onClose: () => void }) {
  const order = useOrder(orderId);
  const o = order.data;
  return (
    <Drawer open={orderId !== null} onClose={onClose} title="订单详情" width={560} destroyOnHidden>
      {order.isError ? <Alert type="error" showIcon message="获取订单详情失败" /> : null}
      {order.isPending ? <Skeleton active /> : null}
      {o ? (
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label="订单号">{o.order_id}</Descriptions.Item>
          <Descriptions.Item label="状态">
            <Tag color={ORDER_STATUS[o.status].color}>{ORDER_STATUS[o.status].label}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label="订单类型">
            {ORDER_TYPE_LABELS[o.order_type] ?? o.order_type}
          </Descriptions.Item>
          <Descriptions.Item label="产品">{`${o.product_type} · ${o.product_name}`}</Descriptions.Item>
          <Descriptions.Item label="容器">{o.container_id}</Descriptions.Item>
          <Descriptions.Item label="服务器">{o.container_server_name}</Descriptions.Item>
          <Descriptions.Item label="区域">{o.container_region}</Descriptions.Item>
          <Descriptions.Item label="GPU">{`${o.container_gpu_type} × ${o.container_gpu_count}`}</Descriptions.Item>
          <Descriptions.Item label="计费方式">{billingTypeLabel(o.billing_method)}</Descriptions.Item>
          <Descriptions.Item label="单价">{`¥${o.unit_price.toFixed(2)}/卡/时`}</Descriptions.Item>
          <Descriptions.Item label="使用时长">{`${o.usage_duration} 小时`}</Descriptions.Item>
          <Descriptions.Item label="金额">{`¥${o.amount.toFixed(2)}`}</Descriptions.Item>
          {o.discount > 0 ? (
            <Descriptions.Item label="卡券抵扣">{`¥${o.discount.toFixed(2)}`}</Descriptions.Item>
          ) : null}
          <Descriptions.Item label="已开票金额">{`¥${o.invoiced_amount.toFixed(2)}`}</Descriptions.Item>
          <Descriptions.Item label="创建时间">{formatDateTime(o.create_time)}</Descriptions.Item>
          <Descriptions.Item label="开始时间">{formatDateTime(o.start_time)}</Descriptions.Item>
          <Descriptions.Item label="结束时间">{formatDateTime(o.end_time)}</Descriptions.Item>
        </Descriptions>
      ) : null}
    </Drawer>
  );
}

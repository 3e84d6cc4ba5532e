import { Descriptions, Typography } from 'antd';
import { formatYuan } from '../../../lib/format';
import { type BillingType, billingTypeInfo, formatDiscount } from '../billing';

export interface PriceSummaryProps {
  unitPrice: number;
  gpuCount: number | null | undefined;
  duration: number | null | undefined;
  billingType: BillingType | undefined;
  total: number | null;
}

export function PriceSummary({ unitPrice, gpuCount, duration, billingType, total }: PriceSummaryProps) {
  const info = billingType ? billingTypeInfo(billingType) : null;
  return (
    <Descriptions size="small" column={2} bordered title="费用明细">
      <Descriptions.Item label="单价">{formatYuan(unitPrice)}/卡/时</Descriptions.Item>
      <Descriptions.Item label="GPU">{gpuCount ? `${gpuCount} 卡` : '-'}</Descriptions.Item>
      <Descriptions.Item label="时长">
        {info && duration ? `${duration} ${info.unit}` : '-'}
      </Descriptions.Item>
      <Descriptions.Item label="折扣">{info ? formatDiscount(info.discountPercent) : '-'}</Descriptions.Item>
      <Descriptions.Item label="合计" span={2}>
        <Typography.Text strong style={{ fontSize: 18, color: '#fa541c' }} data-testid="purchase-total">
          {total === null ? '-' : formatYuan(total)}
        </Typography.Text>
      </Descriptions.Item>
    </Descriptions>
  );
}

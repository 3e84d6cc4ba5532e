import type { BillingType } from '@gpucloud/control-plane/api';
import { Descriptions, Typography } from 'antd';
import { billingTypeInfo, formatDiscount, priceFormula } from '../../../lib/billing-types';
import { formatYuan } from '../../../lib/format';

export interface PriceSummaryProps {
  unitPrice: number;
  gpuCount: number | null | undefined;
  duration: number | null | undefined;
  billingType: BillingType | undefined;
  total: number | null;
}

/** 费用明细: the inputs of the price, the discount as 折, the formula and the total. */
export function PriceSummary({ unitPrice, gpuCount, duration, billingType, total }: PriceSummaryProps) {
  const info = billingType ? billingTypeInfo(billingType) : null;
  const formula =
    billingType && gpuCount && duration && total !== null
      ? priceFormula({ unitPrice, gpuCount, duration, billingType })
      : null;
  return (
    <Descriptions size="small" column={2} bordered title="费用明细">
      <Descriptions.Item label="单价">{formatYuan(unitPrice)}/卡/时</Descriptions.Item>
      <Descriptions.Item label="GPU">{gpuCount ? `${gpuCount} 卡` : '-'}</Descriptions.Item>
      <Descriptions.Item label="时长">
        {info && duration ? `${duration} ${info.unit}` : '-'}
      </Descriptions.Item>
      <Descriptions.Item label="折扣">
        <span data-testid="purchase-discount">{info ? formatDiscount(info.discountPercent) : '-'}</span>
      </Descriptions.Item>
      <Descriptions.Item label="计算公式" span={2}>
        <Typography.Text type="secondary" data-testid="purchase-formula">
          {formula ?? '单价 × GPU 数量 × 时长 × 每周期小时数 × 折扣'}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="合计" span={2}>
        <Typography.Text strong style={{ fontSize: 18, color: '#fa541c' }} data-testid="purchase-total">
          {total === null ? '-' : formatYuan(total)}
        </Typography.Text>
      </Descriptions.Item>
    </Descriptions>
  );
}

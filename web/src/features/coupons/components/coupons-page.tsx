import type { Coupon, CouponStatus } from '@gpucloud/control-plane/api';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Empty,
  Pagination,
  Row,
  Segmented,
  Spin,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header';
import { withDetail } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useCoupons, useUseCoupon } from '../api/coupons';
import { COUPON_PAGE_SIZES, COUPON_STATUS } from '../types';

function CouponCard({
  coupon,
  onUse,
  using,
}: {
  coupon: Coupon;
  onUse: (c: Coupon) => void;
  using: boolean;
}) {
  const status = COUPON_STATUS[coupon.status];
  return (
    <Card
      size="small"
      data-testid={`coupon-${coupon.id}`}
      style={{ opacity: coupon.status === 'unused' ? 1 : 0.6 }}
      title={coupon.name}
      extra={<Tag color={status.color}>{status.label}</Tag>}
    >
      <Typography.Title level={2} style={{ margin: 0, color: '#cf1322' }}>
        ¥{coupon.amount.toFixed(2)}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: '4px 0' }}>
        {coupon.minAmount > 0 ? `满 ¥${coupon.minAmount.toFixed(2)} 可用` : '无门槛'}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        有效期至 {formatDateTime(coupon.expireDate)}
      </Typography.Paragraph>
      {coupon.status === 'unused' ? (
        coupon.selected ? (
          <Tag color="processing">将在下次购买或充值时抵扣</Tag>
        ) : (
          <Button type="primary" size="small" loading={using} onClick={() => onUse(coupon)}>
            使用
          </Button>
        )
      ) : coupon.used_for ? (
        <Typography.Text type="secondary">已用于 {coupon.used_for}</Typography.Text>
      ) : null}
    </Card>
  );
}

/** /coupons: the user's coupons as cards by status, 9/18/36 a page; 'use' marks one for the next payment. */
export function CouponsPage() {
  const { message } = App.useApp();
  const [status, setStatus] = useState<CouponStatus>('unused');
  const [page, setPage] = useState({ current: 1, size: 9 });
  const coupons = useCoupons(page.current, page.size, status);
  const use = useUseCoupon();

  const onUse = (coupon: Coupon) =>
    use.mutate(coupon.id, {
      onSuccess: () =>
        message.success(`卡券将在下一笔满 ¥${coupon.minAmount.toFixed(2)} 的购买或充值中自动抵扣`),
      onError: (error) => message.error(withDetail('使用卡券失败', error)),
    });

  const items = coupons.data?.items ?? [];
  return (
    <div>
      <PageHeader
        title="我的卡券"
        extra={
          <Segmented<CouponStatus>
            value={status}
            onChange={(value) => {
              setStatus(value);
              setPage((p) => ({ ...p, current: 1 }));
            }}
            options={(Object.keys(COUPON_STATUS) as CouponStatus[]).map((s) => ({
              value: s,
              label: COUPON_STATUS[s].label,
            }))}
          />
        }
      />
      {coupons.isError ? (
        <Alert type="error" showIcon message="获取卡券列表失败" style={{ marginBottom: 16 }} />
      ) : null}
      <Spin spinning={coupons.isPending}>
        {items.length === 0 ? (
          <Empty description="暂无卡券" />
        ) : (
          <Row gutter={[16, 16]}>
            {items.map((c) => (
              <Col key={c.id} xs={24} sm={12} lg={8}>
                <CouponCard coupon={c} onUse={onUse} using={use.isPending && use.variables === c.id} />
              </Col>
            ))}
          </Row>
        )}
      </Spin>
      <Pagination
        style={{ marginTop: 16, textAlign: 'right' }}
        current={page.current}
        pageSize={page.size}
        total={coupons.data?.total ?? 0}
        showSizeChanger
        pageSizeOptions={COUPON_PAGE_SIZES}
        showTotal={(total) => `共 ${total} 张`}
        onChange={(current, size) => setPage({ current: size === page.size ? current : 1, size })}
      />
    </div>
  );
}

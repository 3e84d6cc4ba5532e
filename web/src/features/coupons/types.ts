import type { CouponStatus } from '@gpucloud/control-plane/api';

/** 未使用, 已使用, 已过期 (spec §4). */
export const COUPON_STATUS: Record<CouponStatus, { label: string; color: string }> = {
  unused: { label: '未使用', color: 'success' },
  used: { label: '已使用', color: 'default' },
  expired: { label: '已过期', color: 'error' },
};

export const COUPON_PAGE_SIZES = [9, 18, 36];

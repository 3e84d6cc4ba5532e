import { AdminCouponsPage } from '../../../features/admin-billing/components/admin-coupons-page';

export function Component() {
  return <AdminCouponsPage />;
}

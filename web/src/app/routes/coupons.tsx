import { CouponsPage } from '../../features/coupons/components/coupons-page';

export function Component() {
  return <CouponsPage />;
}

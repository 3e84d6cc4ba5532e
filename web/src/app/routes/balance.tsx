import { BalancePage } from '../../features/billing/components/balance-page';

export function Component() {
  return <BalancePage />;
}

import { BillingRecordsPage } from '../../features/billing/components/billing-records-page';

export function Component() {
  return <BillingRecordsPage />;
}

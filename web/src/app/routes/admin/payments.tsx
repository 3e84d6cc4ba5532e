import { AdminPaymentsPage } from '../../../features/admin-billing/components/admin-payments-page';

export function Component() {
  return <AdminPaymentsPage />;
}

import { AdminInvoicesPage } from '../../../features/admin-billing/components/admin-invoices-page';

export function Component() {
  return <AdminInvoicesPage />;
}

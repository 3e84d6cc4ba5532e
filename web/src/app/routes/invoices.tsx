import { InvoicesPage } from '../../features/invoices/components/invoices-page';

export function Component() {
  return <InvoicesPage />;
}

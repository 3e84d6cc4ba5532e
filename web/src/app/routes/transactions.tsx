import { TransactionsPage } from '../../features/orders/components/transactions-page';

export function Component() {
  return <TransactionsPage />;
}

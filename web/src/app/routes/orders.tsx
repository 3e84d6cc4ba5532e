import { OrdersPage } from '../../features/orders/components/orders-page';

export function Component() {
  return <OrdersPage />;
}

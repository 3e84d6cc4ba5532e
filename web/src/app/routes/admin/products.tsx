import { ProductsPage } from '../../../features/catalogue/components/products-page';

export function Component() {
  return <ProductsPage />;
}

import { MarketPage } from '../../features/market/components/market-page';

export function Component() {
  return <MarketPage />;
}

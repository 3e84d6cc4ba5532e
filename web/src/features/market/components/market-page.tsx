import { Alert } from 'antd';
import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../../components/page-header';
import { errorDetail } from '../../../lib/api-client';
import { useCloudProducts } from '../api/get-cloud-products';
import { DEFAULT_MARKET_FILTERS, type MarketFilters as Filters } from '../filters';
import { presetFromSearch } from '../purchase';
import type { CloudProduct } from '../types';
import { MarketFilters } from './market-filters';
import { ProductTable } from './product-table';
import { PurchaseDialog } from './purchase-dialog';

export function MarketPage() {
  const [filters, setFilters] = useState<Filters>(DEFAULT_MARKET_FILTERS);
  const [buying, setBuying] = useState<CloudProduct | null>(null);
  const [opening, setOpening] = useState(0);
  const [searchParams] = useSearchParams();
  const products = useCloudProducts(filters);
  const onBuy = useCallback((product: CloudProduct) => {
    setBuying(product);
    setOpening((count) => count + 1);
  }, []);

  return (
    <div>
      <PageHeader title="轻量实例" />
      <MarketFilters value={filters} onChange={setFilters} />
      {products.isError ? (
        <Alert
          type="error"
          showIcon
          message="获取服务器列表失败"
          description={errorDetail(products.error)}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <ProductTable products={products.data?.items ?? []} loading={products.isFetching} onBuy={onBuy} />
      {buying ? (
        <PurchaseDialog
          key={opening}
          product={buying}
          billingType={filters.billingType}
          preset={presetFromSearch(searchParams)}
          onClose={() => setBuying(null)}
        />
      ) : null}
    </div>
  );
}

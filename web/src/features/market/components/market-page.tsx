import type { CloudProduct } from '@gpucloud/control-plane/api';
import { Alert } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../../components/page-header';
import { errorDetail } from '../../../lib/api-client';
import { marketQueryFor, takePendingDeploy } from '../../../lib/pending-deploy';
import { useCloudProducts } from '../api/get-cloud-products';
import { usePresetChoice } from '../api/get-frameworks';
import { DEFAULT_MARKET_FILTERS, type MarketFilters as Filters } from '../filters';
import { presetFromSearch } from '../purchase';
import { MarketFilters } from './market-filters';
import { PresetNotice } from './preset-notice';
import { ProductTable } from './product-table';
import { PurchaseDialog } from './purchase-dialog';

export function MarketPage() {
  const [filters, setFilters] = useState<Filters>(DEFAULT_MARKET_FILTERS);
  const [buying, setBuying] = useState<CloudProduct | null>(null);
  const [opening, setOpening] = useState(0);
  const [searchParams, setSearchParams] = useSearchParams();
  const products = useCloudProducts(filters);
  const preset = presetFromSearch(searchParams);
  const presetVersion = usePresetChoice(preset).version;
  const onBuy = useCallback((product: CloudProduct) => {
    setBuying(product);
    setOpening((count) => count + 1);
  }, []);

  // 立即部署 while signed out left its choice in localStorage: adopt it once, then forget it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, when the market opens
  useEffect(() => {
    const pending = takePendingDeploy();
    if (pending && !searchParams.get('framework')) {
      setSearchParams(marketQueryFor(pending), { replace: true });
    }
  }, []);

  return (
    <div>
      <PageHeader title="轻量实例" />
      <PresetNotice
        preset={preset}
        onClear={() => setSearchParams(new URLSearchParams(), { replace: true })}
      />
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
      <ProductTable
        products={products.data?.items ?? []}
        loading={products.isFetching}
        onBuy={onBuy}
        warmFor={presetVersion?.id}
      />
      {buying ? (
        <PurchaseDialog
          key={opening}
          product={buying}
          billingType={filters.billingType}
          preset={preset}
          onClose={() => setBuying(null)}
        />
      ) : null}
    </div>
  );
}

import { Alert, Card, Form, Select } from 'antd';
import { errorDetail } from '../../../lib/api-client';
import { BILLING_TYPES } from '../../../lib/billing-types';
import { useGpuTypes, useRegions } from '../api/get-product-filters';
import {
  ALL_GPU_TYPES,
  type MarketFilters as Filters,
  GPU_COUNT_OPTIONS,
  normalizeGpuTypeSelection,
  SYSTEM_TYPE_OPTIONS,
} from '../filters';

export interface MarketFiltersProps {
  value: Filters;
  onChange: (next: Filters) => void;
}

export function MarketFilters({ value, onChange }: MarketFiltersProps) {
  const regions = useRegions();
  const gpuTypes = useGpuTypes();
  const set = <K extends keyof Filters>(key: K, next: Filters[K]) => onChange({ ...value, [key]: next });
  const optionsError = regions.error ?? gpuTypes.error;

  return (
    <Card style={{ marginBottom: 16 }}>
      {optionsError ? (
        <Alert
          type="warning"
          showIcon
          message={`获取筛选条件失败：${errorDetail(optionsError)}`}
          style={{ marginBottom: 12 }}
        />
      ) : null}
      <Form layout="inline" style={{ rowGap: 12 }}>
        <Form.Item label="计费方式" htmlFor="filter-billing-type">
          <Select
            id="filter-billing-type"
            style={{ width: 140 }}
            value={value.billingType}
            options={BILLING_TYPES.map((type) => ({ value: type.value, label: type.label }))}
            onChange={(next) => set('billingType', next)}
          />
        </Form.Item>
        <Form.Item label="地区" htmlFor="filter-region">
          <Select
            id="filter-region"
            style={{ width: 160 }}
            value={value.region}
            loading={regions.isPending}
            options={[
              { value: '', label: '全部地区' },
              ...(regions.data ?? []).map((region) => ({ value: region, label: region })),
            ]}
            onChange={(next) => set('region', next)}
          />
        </Form.Item>
        <Form.Item label="GPU 数量" htmlFor="filter-gpu-count">
          <Select
            id="filter-gpu-count"
            style={{ width: 100 }}
            value={value.gpuCount}
            options={GPU_COUNT_OPTIONS.map((count) => ({ value: count, label: `${count} 卡` }))}
            onChange={(next) => set('gpuCount', next)}
          />
        </Form.Item>
        <Form.Item label="系统类型" htmlFor="filter-system-type">
          <Select
            id="filter-system-type"
            style={{ width: 120 }}
            value={value.systemType}
            options={SYSTEM_TYPE_OPTIONS}
            onChange={(next) => set('systemType', next)}
          />
        </Form.Item>
        <Form.Item label="GPU 型号" htmlFor="filter-gpu-types">
          <Select
            id="filter-gpu-types"
            mode="multiple"
            style={{ minWidth: 220 }}
            value={value.gpuTypes}
            loading={gpuTypes.isPending}
            options={[
              { value: ALL_GPU_TYPES, label: ALL_GPU_TYPES },
              ...(gpuTypes.data ?? []).map((type) => ({ value: type, label: type })),
            ]}
            onChange={(next: string[]) => set('gpuTypes', normalizeGpuTypeSelection(value.gpuTypes, next))}
          />
        </Form.Item>
      </Form>
    </Card>
  );
}

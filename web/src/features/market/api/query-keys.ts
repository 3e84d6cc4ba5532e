import type { MarketFilters } from '../filters';
import type { EntityId } from '../types';

export const marketKeys = {
  all: ['market'] as const,
  products: (filters: MarketFilters) => ['market', 'products', filters] as const,
  regions: () => ['market', 'regions'] as const,
  gpuTypes: () => ['market', 'gpu-types'] as const,
  frameworks: () => ['market', 'frameworks'] as const,
  frameworkVersions: (frameworkId: EntityId) =>
    ['market', 'framework-versions', String(frameworkId)] as const,
  occupiedPorts: (productId: EntityId) => ['market', 'occupied-ports', String(productId)] as const,
};

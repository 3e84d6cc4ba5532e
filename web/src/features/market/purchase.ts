import type {
  BillingType,
  CloudProduct,
  FrameworkVersion,
  PurchasePayload,
} from '@gpucloud/control-plane/api';
import { computeTotalPrice } from '../../lib/billing-types';
import { defaultInstanceName } from '../../lib/instances';
import { cleanMounts } from './mounts';
import type { ImageType, MountEntry } from './types';

/** Values of the 创建实例 form. */
export interface PurchaseFormValues {
  instanceName: string;
  imageType: ImageType;
  framework?: number;
  frameworkVersion?: number;
  /** 自定义镜像: the user's saved image (instead of framework and version). */
  customImageId?: number;
  gpuCount?: number | null;
  needExpand: boolean;
  billingType?: BillingType;
  duration?: number | null;
  mounts: MountEntry[];
  customPorts: number[];
  agreeTerms: boolean;
}

/**
 * A /market?framework=&version=&imageType= link from the app market, or
 * /market?imageType=custom&image=<id> from 我的镜像 (创建实例).
 */
export interface PurchasePreset {
  framework: string | null;
  version: string | null;
  imageType: ImageType | null;
  /** The saved image's id (自定义镜像). */
  image?: number | null;
}

export function presetFromSearch(search: URLSearchParams): PurchasePreset {
  const imageType = search.get('imageType');
  const image = Number(search.get('image'));
  return {
    framework: search.get('framework'),
    version: search.get('version'),
    imageType: imageType === 'public' || imageType === 'custom' ? imageType : null,
    image: imageType === 'custom' && Number.isInteger(image) && image > 0 ? image : null,
  };
}

export function initialPurchaseValues(billingType: BillingType, preset: PurchasePreset): PurchaseFormValues {
  return {
    instanceName: defaultInstanceName(),
    imageType: preset.imageType ?? 'public',
    ...(preset.imageType === 'custom' && preset.image ? { customImageId: preset.image } : {}),
    gpuCount: 1,
    needExpand: false,
    billingType,
    duration: 1,
    mounts: [],
    customPorts: [],
    agreeTerms: false,
  };
}

/** The total shown in the summary, or null while an input it needs is missing. */
export function totalFor(
  product: Pick<CloudProduct, 'price'>,
  values: Partial<PurchaseFormValues>,
): number | null {
  const { gpuCount, duration, billingType } = values;
  if (!billingType || !gpuCount || !duration || gpuCount < 1 || duration < 1) return null;
  return computeTotalPrice({ unitPrice: product.price, gpuCount, duration, billingType });
}

/**
 * The body of POST /api/cloud-products/{id}/purchase from validated form values: a public image
 * names its framework and version, a custom one (自定义镜像) the saved image's id.
 */
export function buildPurchasePayload(
  product: Pick<CloudProduct, 'price'>,
  values: PurchaseFormValues,
  version: Pick<FrameworkVersion, 'ports'> | undefined,
): PurchasePayload {
  const { framework, frameworkVersion, customImageId, gpuCount, billingType, duration } = values;
  if (!gpuCount || !billingType || !duration) throw new Error('purchase form is incomplete');
  const common = {
    instanceName: values.instanceName.trim(),
    gpuCount,
    needExpand: values.needExpand,
    custom_ports: [...values.customPorts],
    agreeTerms: true as const,
    mounts: cleanMounts(values.mounts),
    billing_type: billingType,
    duration,
    total_price: computeTotalPrice({ unitPrice: product.price, gpuCount, duration, billingType }),
  };
  if (values.imageType === 'custom') {
    if (customImageId === undefined) throw new Error('purchase form is incomplete');
    return { ...common, imageType: 'custom', customImageId, frame_ports: {} };
  }
  if (framework === undefined || frameworkVersion === undefined) {
    throw new Error('purchase form is incomplete');
  }
  return {
    ...common,
    imageType: 'public',
    framework,
    frameworkVersion,
    frame_ports: version?.ports ?? {},
  };
}

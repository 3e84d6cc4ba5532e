import { Alert, Button } from 'antd';
import { useImages } from '../../images/api/get-images';
import { imageRef } from '../../images/types';
import { usePresetChoice } from '../api/get-frameworks';
import type { PurchasePreset } from '../purchase';

/** 我的镜像 → 创建实例 (/market?imageType=custom&image=<id>): the saved image the dialog preselects. */
function CustomPresetNotice({ imageId, onClear }: { imageId: number; onClear: () => void }) {
  const images = useImages();
  const image = images.data?.images.find((i) => i.id === imageId);
  return (
    <Alert
      type="info"
      showIcon
      data-testid="market-preset"
      message={`已选择自定义镜像：${image ? imageRef(image) : `#${imageId}`}`}
      description="请选择服务器并点击「购买」，创建实例时将自动选中该镜像（任意节点均可使用）。"
      action={
        <Button size="small" type="link" onClick={onClear}>
          清除选择
        </Button>
      }
      style={{ marginBottom: 16 }}
    />
  );
}

/** Says which image the app market (or 我的镜像) chose, so the buyer knows the purchase dialog is prefilled. */
export function PresetNotice({ preset, onClear }: { preset: PurchasePreset; onClear: () => void }) {
  if (preset.imageType === 'custom' && preset.image)
    return <CustomPresetNotice imageId={preset.image} onClear={onClear} />;
  return <PublicPresetNotice preset={preset} onClear={onClear} />;
}

function PublicPresetNotice({ preset, onClear }: { preset: PurchasePreset; onClear: () => void }) {
  const { framework, version } = usePresetChoice(preset);
  if (!preset.framework) return null;
  const chosen = [framework?.name ?? preset.framework, version?.version].filter(Boolean).join(' ');
  return (
    <Alert
      type="info"
      showIcon
      data-testid="market-preset"
      message={`已从应用市场选择镜像：${chosen}`}
      description="请选择服务器并点击「购买」，创建实例时将自动选中该框架与版本。"
      action={
        <Button size="small" type="link" onClick={onClear}>
          清除选择
        </Button>
      }
      style={{ marginBottom: 16 }}
    />
  );
}

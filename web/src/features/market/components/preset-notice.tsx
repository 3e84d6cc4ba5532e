import { Alert, Button } from 'antd';
import { usePresetChoice } from '../api/get-frameworks';
import type { PurchasePreset } from '../purchase';

/** Says which image the app market chose, so the buyer knows the purchase dialog is prefilled. */
export function PresetNotice({ preset, onClear }: { preset: PurchasePreset; onClear: () => void }) {
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

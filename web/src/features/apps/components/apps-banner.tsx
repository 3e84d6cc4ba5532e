import { CloseOutlined } from '@ant-design/icons';
import { Alert } from 'antd';
import { useState } from 'react';
import { useTrialCreditLine } from '../../auth/api/get-site';
import { dismissBanner, isBannerDismissed } from '../banner';

const PITCH = '热门深度学习框架与模型镜像，选好镜像即可一键部署到 GPU 实例，按小时计费，用完即停。';

/** The market's promotion banner; once closed it stays closed on this browser. */
export function AppsBanner() {
  const [visible, setVisible] = useState(() => !isBannerDismissed());
  if (!visible) return null;
  return <Banner onClose={() => setVisible(false)} />;
}

/**
 * The trial credit with the server's amount as its title over the pitch; the pitch alone while the
 * amount loads or when new users get none.
 */
function Banner({ onClose }: { onClose: () => void }) {
  const credit = useTrialCreditLine();
  return (
    <Alert
      data-testid="apps-banner"
      type="info"
      showIcon
      closable={{ closeIcon: <CloseOutlined />, 'aria-label': '关闭横幅' }}
      message={credit ?? PITCH}
      description={credit ? PITCH : undefined}
      style={{ marginBottom: 16 }}
      onClose={() => {
        dismissBanner();
        onClose();
      }}
    />
  );
}

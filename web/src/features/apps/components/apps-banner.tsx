import { CloseOutlined } from '@ant-design/icons';
import { Alert } from 'antd';
import { useState } from 'react';
import { dismissBanner, isBannerDismissed } from '../banner';

/** The market's promotion banner; once closed it stays closed on this browser. */
export function AppsBanner() {
  const [visible, setVisible] = useState(() => !isBannerDismissed());
  if (!visible) return null;
  return (
    <Alert
      data-testid="apps-banner"
      type="info"
      showIcon
      closable={{ closeIcon: <CloseOutlined />, 'aria-label': '关闭横幅' }}
      message="新用户注册即送 20 元体验金"
      description="热门深度学习框架与模型镜像，选好镜像即可一键部署到 GPU 实例，按小时计费，用完即停。"
      style={{ marginBottom: 16 }}
      onClose={() => {
        dismissBanner();
        setVisible(false);
      }}
    />
  );
}

import { AppstoreOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import { useState } from 'react';

/** The image's icon; the default icon when it has none or the address does not load. */
export function AppIcon({
  icon,
  name,
  size = 48,
}: {
  icon: string | null | undefined;
  name: string;
  size?: number;
}) {
  const { token } = theme.useToken();
  const [broken, setBroken] = useState(false);
  const box = { width: size, height: size, borderRadius: token.borderRadiusLG, flex: 'none' } as const;
  if (icon && !broken) {
    return (
      <img
        src={icon}
        alt={`${name} 图标`}
        style={{ ...box, objectFit: 'cover' }}
        onError={() => setBroken(true)}
      />
    );
  }
  return (
    <span
      role="img"
      aria-label={`${name} 默认图标`}
      data-testid="app-default-icon"
      style={{
        ...box,
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: token.colorPrimaryBg,
        color: token.colorPrimary,
        fontSize: size / 2,
      }}
    >
      <AppstoreOutlined />
    </span>
  );
}

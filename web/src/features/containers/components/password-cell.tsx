import { CopyOutlined, EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { App, Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { copyText } from '../../../lib/clipboard';

export function PasswordCell({ password }: { password: string | null }) {
  const [revealed, setRevealed] = useState(false);
  const { message } = App.useApp();
  if (!password) return <Typography.Text type="secondary">-</Typography.Text>;

  const copy = async () => {
    try {
      await copyText(password);
      message.success('密码已复制');
    } catch {
      message.error('复制失败');
    }
  };

  return (
    <Space size={4}>
      <Typography.Text className="mono">{revealed ? password : '••••••••'}</Typography.Text>
      <Button
        type="text"
        size="small"
        aria-label={revealed ? '隐藏密码' : '显示密码'}
        icon={revealed ? <EyeInvisibleOutlined /> : <EyeOutlined />}
        onClick={() => setRevealed(!revealed)}
      />
      <Button
        type="text"
        size="small"
        aria-label="复制密码"
        icon={<CopyOutlined />}
        onClick={() => void copy()}
      />
    </Space>
  );
}

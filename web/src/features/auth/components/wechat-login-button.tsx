import { WechatOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { storeRedirect } from '../../../lib/auth';
import { getWechatLoginUrl } from '../api/wechat';
import { beginWechatFlow } from '../wechat-flow';

/** QR login: WeChat's page shows the QR code and sends the browser back to /wechat-callback. */
export function WechatLoginButton({ redirect }: { redirect: string | null }) {
  const { message } = App.useApp();
  const start = useMutation({
    mutationFn: getWechatLoginUrl,
    onSuccess: (answer) => {
      if (redirect) storeRedirect(redirect);
      beginWechatFlow('login', answer);
    },
    onError: () => {
      message.error('获取微信登录二维码失败');
    },
  });
  return (
    <Button
      block
      icon={<WechatOutlined style={{ color: '#07c160' }} />}
      loading={start.isPending}
      onClick={() => start.mutate()}
      data-testid="wechat-login"
    >
      微信扫码登录
    </Button>
  );
}

import { WechatCallbackPage } from '../../features/auth/components/wechat-callback-page';

export function Component() {
  return <WechatCallbackPage />;
}

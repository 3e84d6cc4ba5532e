import { WechatSandboxPage } from '../../features/auth/components/wechat-sandbox-page';

export function Component() {
  return <WechatSandboxPage />;
}

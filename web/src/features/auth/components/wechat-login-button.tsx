import { useMutation } from '@tanstack/react-query';
import { storeRedirect } from '../../../lib/auth';
import { showMessage } from '../../../lib/messages';
import { getWechatLoginUrl } from '../api/wechat';
import { beginWechatFlow } from '../wechat-flow';
import { AuthIcon } from './auth-icons';

/** QR login: WeChat's page shows the QR code and sends the browser back to /wechat-callback. */
export function WechatLoginButton({ redirect }: { redirect: string | null }) {
  const start = useMutation({
    mutationFn: getWechatLoginUrl,
    onSuccess: (answer) => {
      if (redirect) storeRedirect(redirect);
      beginWechatFlow('login', answer);
    },
    onError: () => {
      showMessage('error', '获取微信登录二维码失败');
    },
  });
  return (
    <button
      type="button"
      className="gc-btn auth-btn-block"
      aria-busy={start.isPending || undefined}
      onClick={() => {
        if (!start.isPending) start.mutate();
      }}
      data-testid="wechat-login"
    >
      {start.isPending ? (
        <AuthIcon name="loading" />
      ) : (
        <AuthIcon name="wechat" style={{ color: '#07c160' }} />
      )}
      <span>微信扫码登录</span>
    </button>
  );
}

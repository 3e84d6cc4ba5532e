import { App, Flex, Spin, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError, withDetail } from '../../../lib/api-client';
import { completeWechat } from '../api/wechat';
import { postLoginPath, startSession } from '../session';
import { takeWechatFlow } from '../wechat-flow';

/**
 * /wechat-callback?code&state: WeChat (or the sandbox page) sends the browser here. The code is
 * exchanged once (a ref guards against React running the effect twice).
 */
export function WechatCallbackPage() {
  const { message } = App.useApp();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = searchParams.get('code');
    const state = searchParams.get('state');
    const flow = takeWechatFlow();
    const binding = flow?.purpose === 'bind';

    const fail = (error?: unknown) => {
      if (error instanceof ApiError && error.code === 'WECHAT_CODE_USED') {
        if (binding) {
          message.error('微信授权已过期，请重新扫码登录');
          navigate('/user/profile', { replace: true });
        } else {
          navigate('/login?error=code_used', { replace: true });
        }
        return;
      }
      if (binding) {
        message.error(withDetail('微信绑定失败', error ?? new Error('授权无效')));
        navigate('/user/profile', { replace: true });
      } else {
        message.error('微信登录失败');
        navigate('/login?error=wechat_failed', { replace: true });
      }
    };

    // Only the state this tab started is accepted: a forwarded link cannot sign anyone in.
    if (!code || !state || !flow || flow.state !== state) {
      fail();
      return;
    }
    completeWechat({ code, state }).then((answer) => {
      if (answer.purpose === 'login') {
        startSession(answer);
        message.success('登录成功');
        navigate(postLoginPath(null), { replace: true });
      } else {
        message.success('微信绑定成功');
        navigate('/user/profile', { replace: true });
      }
    }, fail);
  }, [message, navigate, searchParams]);

  return (
    <Flex vertical align="center" gap={16} style={{ padding: 96 }}>
      <Spin size="large" />
      <Typography.Text type="secondary">正在完成微信登录…</Typography.Text>
    </Flex>
  );
}

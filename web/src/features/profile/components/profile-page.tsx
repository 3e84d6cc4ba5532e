import { Alert, App, Card, Descriptions, Flex, Skeleton, Tag } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { PageHeader } from '../../../components/page-header';
import { ApiError, errorDetail } from '../../../lib/api-client';
import { clearSession } from '../../../lib/auth';
import { formatYuan } from '../../../lib/format';
import { ApiKeysCard } from '../../api-keys/components/api-keys-card';
import { validateEmail, validatePhone } from '../../auth/validation';
import { useProfile } from '../api/get-profile';
import { resetPhone, sendEmailCode, sendPhoneCode, verifyEmail, verifyPhone } from '../api/profile-commands';
import { EMAIL_CODE_COUNTDOWN_S, PHONE_CODE_COUNTDOWN_S } from '../types';
import { ContactVerification } from './contact-verification';
import { SshKeyEditor } from './ssh-key-editor';
import { WechatBinding } from './wechat-binding';

export const MSG_SESSION_EXPIRED = '登录已过期，请重新登录';
export const EXPIRED_REDIRECT_MS = 1500;

/** /user/profile: account, phone and e-mail verification, WeChat binding, SSH keys, API keys. */
export function ProfilePage() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const profile = useProfile();
  const expired =
    profile.error instanceof ApiError && (profile.error.status === 401 || profile.error.status === 403);

  // The spec's profile rule: 401/403 → 登录已过期，请重新登录, sign out, /login after 1.5 s.
  useEffect(() => {
    if (!expired) return;
    message.error(MSG_SESSION_EXPIRED);
    clearSession();
    const timer = window.setTimeout(() => navigate('/login'), EXPIRED_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [expired, message, navigate]);

  if (profile.isPending) return <Skeleton active />;
  if (profile.isError) {
    return (
      <Alert
        type="error"
        showIcon
        message={expired ? MSG_SESSION_EXPIRED : '获取用户信息失败'}
        description={expired ? undefined : errorDetail(profile.error)}
      />
    );
  }
  const p = profile.data;
  return (
    <div>
      <PageHeader title="个人中心" />
      <Flex vertical gap={16}>
        <Card title="账号信息">
          <Descriptions column={{ xs: 1, sm: 2 }}>
            <Descriptions.Item label="用户名">{p.username}</Descriptions.Item>
            <Descriptions.Item label="昵称">{p.nickname || '-'}</Descriptions.Item>
            <Descriptions.Item label="余额">{formatYuan(p.balance)}</Descriptions.Item>
            <Descriptions.Item label="账号类型">
              {p.is_admin ? <Tag color="gold">管理员</Tag> : <Tag>普通用户</Tag>}
            </Descriptions.Item>
          </Descriptions>
        </Card>
        <Card title="手机号">
          <ContactVerification
            key={`phone-${p.phone}-${p.is_phone_verified}`}
            label="手机号"
            value={p.phone}
            verified={p.is_phone_verified}
            validate={validatePhone}
            countdownSeconds={PHONE_CODE_COUNTDOWN_S}
            send={sendPhoneCode}
            verify={(phone, code) => verifyPhone({ phone, code })}
            modify={resetPhone}
            successText="手机号验证成功"
            testId="phone-verification"
          />
        </Card>
        <Card title="邮箱">
          <ContactVerification
            key={`email-${p.email}-${p.is_email_verified}`}
            label="邮箱"
            value={p.email}
            verified={p.is_email_verified}
            validate={validateEmail}
            countdownSeconds={EMAIL_CODE_COUNTDOWN_S}
            send={sendEmailCode}
            verify={(_email, code) => verifyEmail(code)}
            successText="邮箱验证成功"
            testId="email-verification"
          />
        </Card>
        <Card title="微信绑定">
          <WechatBinding profile={p} />
        </Card>
        <Card title="SSH 公钥">
          <SshKeyEditor profile={p} />
        </Card>
        <ApiKeysCard />
      </Flex>
    </div>
  );
}

import { WechatOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { withDetail } from '../../../lib/api-client';
import { authorizeSandboxWechat } from '../api/wechat';

/** Where to return: the redirect_uri when it is this console's callback, else /wechat-callback. */
export function callbackPath(redirectUri: string | null): string {
  if (redirectUri) {
    try {
      const url = new URL(redirectUri, window.location.origin);
      if (url.origin === window.location.origin) return url.pathname;
    } catch {
      // Not a URL: fall back to the console's own callback.
    }
  }
  return '/wechat-callback';
}

/**
 * /wechat-sandbox: WeChat's part when no WeChat credentials are configured. The tester names a
 * WeChat identity (the same nickname is the same identity) and authorises, as a QR scan would.
 */
export function WechatSandboxPage() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const state = searchParams.get('state') ?? '';
  const [initialNickname] = useState(() => `测试用户${Math.floor(1000 + Math.random() * 9000)}`);

  const authorize = useMutation({
    mutationFn: authorizeSandboxWechat,
    onSuccess: ({ code }) => {
      const query = new URLSearchParams({ code, state });
      navigate(`${callbackPath(searchParams.get('redirect_uri'))}?${query}`, { replace: true });
    },
    onError: (error) => {
      message.error(withDetail('授权失败', error));
    },
  });

  return (
    <Flex justify="center" style={{ padding: '48px 16px' }}>
      <Card style={{ width: 420, maxWidth: '100%' }}>
        <Flex vertical align="center" gap={8} style={{ marginBottom: 16 }}>
          <WechatOutlined style={{ fontSize: 48, color: '#07c160' }} />
          <Typography.Title level={4} style={{ margin: 0 }}>
            微信授权（沙箱）
          </Typography.Title>
        </Flex>
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="未配置微信开放平台凭据，本页面代替微信扫码授权。"
          description="输入一个微信昵称并确认授权：同一昵称即同一微信身份。"
        />
        {state ? null : <Alert type="error" showIcon message="缺少登录状态，请返回重新发起微信登录" />}
        <Form
          layout="vertical"
          requiredMark={false}
          initialValues={{ nickname: initialNickname }}
          onFinish={(values: { nickname: string }) =>
            authorize.mutate({ nickname: values.nickname.trim(), state })
          }
        >
          <Form.Item
            label="微信昵称"
            name="nickname"
            rules={[{ required: true, whitespace: true, message: '请输入微信昵称' }]}
          >
            <Input maxLength={32} />
          </Form.Item>
          <Flex gap={8}>
            <Button onClick={() => navigate('/login', { replace: true })}>取消</Button>
            <Button type="primary" htmlType="submit" block disabled={!state} loading={authorize.isPending}>
              确认授权
            </Button>
          </Flex>
        </Form>
      </Card>
    </Flex>
  );
}

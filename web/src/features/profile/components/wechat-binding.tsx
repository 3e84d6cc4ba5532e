import { WechatOutlined } from '@ant-design/icons';
import type { Profile } from '@gpucloud/control-plane/api';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Flex, Tag, Typography } from 'antd';
import { getWechatBindUrl } from '../../auth/api/wechat';
import { beginWechatFlow } from '../../auth/wechat-flow';

export function WechatBinding({ profile }: { profile: Profile }) {
  const { message } = App.useApp();
  const bind = useMutation({
    mutationFn: getWechatBindUrl,
    onSuccess: (answer) => beginWechatFlow('bind', answer),
    onError: () => message.error('获取微信绑定二维码失败'),
  });
  if (profile.is_wechat_bound) {
    return (
      <Flex align="center" gap={12} data-testid="wechat-binding">
        <Tag color="success" icon={<WechatOutlined />}>
          已绑定
        </Tag>
        <Typography.Text>{profile.wechat_nickname}</Typography.Text>
      </Flex>
    );
  }
  return (
    <Flex align="center" gap={12} data-testid="wechat-binding">
      <Tag>未绑定</Tag>
      <Button
        icon={<WechatOutlined style={{ color: '#07c160' }} />}
        loading={bind.isPending}
        onClick={() => bind.mutate()}
      >
        绑定微信
      </Button>
    </Flex>
  );
}

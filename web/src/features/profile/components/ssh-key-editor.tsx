import type { Profile } from '@gpucloud/control-plane/api';
import { App, Button, Flex, Input, Typography } from 'antd';
import { useState } from 'react';
import { withDetail } from '../../../lib/api-client';
import { saveSshKey, useProfileMutation } from '../api/profile-commands';
import { SSH_KEY_MAX_LENGTH } from '../types';

/** The profile's SSH public keys, one per line; they go into authorized_keys of new and restarted containers. */
export function SshKeyEditor({ profile }: { profile: Profile }) {
  const { message } = App.useApp();
  const [text, setText] = useState(profile.ssh_key ?? '');
  const save = useProfileMutation(saveSshKey, {
    onSuccess: () => message.success('SSH公钥保存成功'),
    onError: (error) => message.error(withDetail('保存失败', error)),
  });
  return (
    <Flex vertical gap={8}>
      <Typography.Text type="secondary">
        每行一个 OpenSSH 公钥（ssh-ed25519、ssh-rsa、ecdsa-sha2-*、sk-*），创建或启动容器时写入
        /root/.ssh/authorized_keys。
      </Typography.Text>
      <Input.TextArea
        aria-label="SSH公钥"
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={SSH_KEY_MAX_LENGTH}
        showCount
        autoSize={{ minRows: 4, maxRows: 10 }}
        placeholder="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA... user@host"
        className="mono"
      />
      <div>
        <Button type="primary" loading={save.isPending} onClick={() => save.mutate(text)}>
          保存
        </Button>
      </div>
    </Flex>
  );
}

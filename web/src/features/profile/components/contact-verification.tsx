import type { Profile } from '@gpucloud/control-plane/api';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Flex, Input, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { SendCodeButton } from '../../../components/send-code-button';
import { withDetail } from '../../../lib/api-client';
import { useCountdown } from '../../../lib/use-countdown';
import { useProfileMutation } from '../api/profile-commands';

export interface ContactVerificationProps {
  /** 手机号 or 邮箱. */
  label: string;
  value: string | null;
  verified: boolean;
  validate: (value: string) => string | null;
  countdownSeconds: number;
  send: (value: string) => Promise<unknown>;
  verify: (value: string, code: string) => Promise<Profile>;
  /** 'Modify' on a verified contact; the phone also tells the server (reset call). */
  modify?: () => Promise<Profile>;
  successText: string;
  testId: string;
}

/** One contact's verification: unverified → code sent → verified; 'modify' starts over. */
export function ContactVerification(props: ContactVerificationProps) {
  const { message } = App.useApp();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(props.value ?? '');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(false);
  const countdown = useCountdown();

  const send = useMutation({
    mutationFn: props.send,
    onSuccess: () => {
      message.success('验证码已发送');
      setSent(true);
      countdown.start(props.countdownSeconds);
    },
    onError: (error) => message.error(withDetail('发送验证码失败', error)),
  });
  const verify = useProfileMutation(
    (input: { value: string; code: string }) => props.verify(input.value, input.code),
    {
      onSuccess: () => message.success(props.successText),
      onError: (error) => message.error(withDetail('验证失败', error)),
    },
  );
  const modify = useProfileMutation(props.modify ?? (() => Promise.reject(new Error('不支持'))), {
    onError: (error) => message.error(withDetail('操作失败', error)),
  });

  const onSend = () => {
    const trimmed = value.trim();
    if (!trimmed) {
      message.warning(`请先输入${props.label}`);
      return;
    }
    const problem = props.validate(trimmed);
    if (problem) {
      message.error(problem);
      return;
    }
    send.mutate(trimmed);
  };

  const onVerify = () => {
    if (!value.trim()) {
      message.warning(`请先输入${props.label}`);
      return;
    }
    if (!code.trim()) {
      message.error('请输入验证码');
      return;
    }
    // Success replaces the profile, which remounts this component in its verified state.
    verify.mutate({ value: value.trim(), code: code.trim() });
  };

  const onModify = () => {
    setValue(props.value ?? '');
    if (!props.modify) {
      setEditing(true);
      return;
    }
    // The reset call answers the unverified profile, which remounts this component as a form.
    modify.mutate(undefined);
  };

  if (props.verified && !editing) {
    return (
      <Flex align="center" gap={12} wrap data-testid={props.testId}>
        <Typography.Text>{props.value}</Typography.Text>
        <Tag color="success">已验证</Tag>
        <Button size="small" onClick={onModify} loading={modify.isPending}>
          修改
        </Button>
      </Flex>
    );
  }

  return (
    <Flex vertical gap={8} data-testid={props.testId} style={{ maxWidth: 480 }}>
      <Space>
        <Tag color={sent ? 'processing' : 'default'}>{sent ? '验证码已发送' : '未验证'}</Tag>
      </Space>
      <Flex gap={8}>
        <Input
          aria-label={props.label}
          placeholder={`请输入${props.label}`}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <SendCodeButton remaining={countdown.remaining} loading={send.isPending} onClick={onSend} />
      </Flex>
      <Flex gap={8}>
        <Input
          aria-label={`${props.label}验证码`}
          placeholder="请输入验证码"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
        <Button type="primary" onClick={onVerify} loading={verify.isPending}>
          验证
        </Button>
      </Flex>
    </Flex>
  );
}

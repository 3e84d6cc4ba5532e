import type { ApiKey } from '@gpucloud/control-plane/api';
import { Alert, App, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { FormDialog } from '../../../components/form-dialog';
import { ApiError, errorDetail } from '../../../lib/api-client';
import { useCreateApiKey } from '../api/api-key-commands';
import { MSG_LIMIT, SERVER_LIMIT_DETAIL } from '../types';

/** Name → create; then the full key, shown this one time. */
export function CreateApiKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ name: string }>();
  const [created, setCreated] = useState<ApiKey | null>(null);
  const create = useCreateApiKey();

  const close = () => {
    setCreated(null);
    create.reset();
    onClose();
  };

  const submit = ({ name }: { name: string }) =>
    create.mutate(name.trim(), {
      onSuccess: (key) => {
        message.success('创建成功');
        setCreated(key);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.serverDetail === SERVER_LIMIT_DETAIL) message.error(MSG_LIMIT);
        else message.error(`创建 API 密钥失败: ${errorDetail(error)}`);
      },
    });

  if (created) {
    return (
      <Modal
        open={open}
        title="API 密钥已创建"
        onOk={close}
        onCancel={close}
        okText="我已保存"
        cancelButtonProps={{ hidden: true }}
      >
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message="请立即复制并妥善保存：完整密钥只显示这一次。"
        />
        <Typography.Paragraph>名称：{created.name}</Typography.Paragraph>
        <Typography.Paragraph copyable={{ text: created.key }} className="mono" data-testid="created-api-key">
          {created.key}
        </Typography.Paragraph>
      </Modal>
    );
  }
  return (
    <FormDialog<{ name: string }>
      open={open}
      title="创建 API 密钥"
      okText="创建"
      form={form}
      requiredMark={false}
      saving={create.isPending}
      onClose={close}
      onFinish={submit}
    >
      <Form.Item
        label="密钥名称"
        name="name"
        rules={[{ required: true, whitespace: true, message: '请输入密钥名称' }]}
      >
        <Input maxLength={64} placeholder="例如：训练脚本" />
      </Form.Item>
    </FormDialog>
  );
}

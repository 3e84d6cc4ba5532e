import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { AppImage } from '@gpucloud/control-plane/api';
import { App, Button, Drawer, Flex, Form, Input, Radio, Select, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, withServerDetail } from '../../../lib/api-client';
import { ruleFrom } from '../../../lib/form-rules';
import { defaultInstanceName, MSG_CREATED } from '../../../lib/instances';
import { randomId } from '../../../lib/uuid';
import { useDeployApp } from '../api/deploy-app';
import {
  buildDeployPayload,
  checkEnvKey,
  DEPLOY_GPU_COUNTS,
  DEPLOY_GPU_TYPES,
  type DeployFormValues,
  filledEnv,
  MAX_ENV_ENTRIES,
  MSG_ENV_MAX,
} from '../deploy';
import type { EnvEntry } from '../types';

/** 一键部署: an hourly instance of the image on the cheapest server with the chosen GPUs. */
export function DeployDrawer({ image, onClose }: { image: AppImage; onClose: () => void }) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<DeployFormValues>();
  const [idempotencyKey, setIdempotencyKey] = useState(randomId);
  const [initialValues] = useState<DeployFormValues>(() => ({
    instanceName: defaultInstanceName(),
    gpuType: 'rtx4090',
    gpuCount: 1,
    env: [],
  }));
  const deploy = useDeployApp();

  const submit = (values: DeployFormValues) =>
    deploy.mutate(
      { payload: buildDeployPayload(image.id, values), idempotencyKey },
      {
        onSuccess: () => {
          message.success(MSG_CREATED);
          onClose();
          navigate('/user/containers');
        },
        onError: (error) => {
          message.error(withServerDetail('创建失败', error));
          // A refusal bought nothing: a corrected retry is a new deployment. After a timeout or a
          // 5xx it may exist, so the retry keeps the key and cannot create a second one.
          if (error instanceof ApiError && error.status >= 400 && error.status < 500)
            setIdempotencyKey(randomId());
        },
      },
    );

  const envKeyRule = (index: number) =>
    ruleFrom((key?: string) => {
      const rows = (form.getFieldValue('env') as EnvEntry[] | undefined) ?? [];
      const row = rows[index];
      if (!row || (!(key ?? '').trim() && !row.value)) return null;
      const earlier = filledEnv(rows.slice(0, index)).map((entry) => entry.key);
      return checkEnvKey(key ?? '', earlier);
    });

  return (
    <Drawer
      open
      title={`一键部署 - ${image.name}`}
      width={560}
      onClose={onClose}
      maskClosable={false}
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={deploy.isPending} onClick={() => form.submit()}>
            部署
          </Button>
        </Flex>
      }
    >
      <Form<DeployFormValues>
        form={form}
        name="deploy"
        layout="vertical"
        initialValues={initialValues}
        onFinish={submit}
      >
        <Form.Item
          label="实例名称"
          name="instanceName"
          rules={[
            { required: true, whitespace: true, message: '请输入实例名称' },
            { max: 64, message: '实例名称不能超过64个字符' },
          ]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item label="GPU 型号" name="gpuType" rules={[{ required: true, message: '请选择 GPU 型号' }]}>
          <Radio.Group optionType="button" buttonStyle="solid" options={[...DEPLOY_GPU_TYPES]} />
        </Form.Item>
        <Form.Item label="GPU 数量" name="gpuCount" rules={[{ required: true, message: '请选择GPU数量' }]}>
          <Select
            style={{ width: 140 }}
            options={DEPLOY_GPU_COUNTS.map((count) => ({ value: count, label: `${count} 卡` }))}
          />
        </Form.Item>
        <Form.Item label="环境变量" required={false}>
          <Form.List name="env">
            {(fields, { add, remove }) => (
              <Flex vertical gap={0}>
                {fields.map((field, index) => (
                  <Flex key={field.key} gap={8} align="flex-start">
                    <Form.Item
                      name={[field.name, 'key']}
                      rules={[envKeyRule(index)]}
                      style={{ flex: 1 }}
                      dependencies={[['env', field.name, 'value']]}
                    >
                      <Input aria-label={`环境变量${index + 1}名称`} placeholder="名称，如 MODEL_NAME" />
                    </Form.Item>
                    <Form.Item name={[field.name, 'value']} style={{ flex: 1 }}>
                      <Input aria-label={`环境变量${index + 1}值`} placeholder="值" />
                    </Form.Item>
                    <Button
                      type="text"
                      danger
                      aria-label={`删除环境变量${index + 1}`}
                      icon={<DeleteOutlined />}
                      onClick={() => remove(field.name)}
                    />
                  </Flex>
                ))}
                <Button
                  icon={<PlusOutlined />}
                  style={{ alignSelf: 'flex-start' }}
                  onClick={() => {
                    if (fields.length >= MAX_ENV_ENTRIES) message.warning(MSG_ENV_MAX);
                    else add({ key: '', value: '' });
                  }}
                >
                  添加环境变量
                </Button>
              </Flex>
            )}
          </Form.List>
        </Form.Item>
        <Typography.Paragraph type="secondary">
          镜像：{image.framework.name} {image.framework.version.name}。将按小时计费，在满足所选 GPU
          型号与数量的最低价服务器上创建实例并自动启动。
        </Typography.Paragraph>
      </Form>
    </Drawer>
  );
}

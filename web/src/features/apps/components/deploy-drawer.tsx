import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { AppImage } from '@gpucloud/control-plane/api';
import {
  Alert,
  App,
  Button,
  Checkbox,
  Descriptions,
  Divider,
  Drawer,
  Flex,
  Form,
  Input,
  Radio,
  Select,
  Skeleton,
  Typography,
} from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ApiError, withServerDetail } from '../../../lib/api-client';
import { ruleFrom } from '../../../lib/form-rules';
import { formatYuan } from '../../../lib/format';
import { defaultInstanceName, MSG_CREATED } from '../../../lib/instances';
import { randomId } from '../../../lib/uuid';
import { PriceSummary } from '../../market/components/price-summary';
import { useDeployApp } from '../api/deploy-app';
import { useDeployQuote } from '../api/get-deploy-quote';
import {
  buildDeployPayload,
  checkEnvKey,
  DEPLOY_BILLING,
  DEPLOY_GPU_COUNTS,
  DEPLOY_GPU_TYPES,
  type DeployFormValues,
  deployTotal,
  filledEnv,
  MAX_ENV_ENTRIES,
  MSG_ENV_MAX,
  MSG_TERMS_REQUIRED,
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
    agreeTerms: false,
  }));
  const deploy = useDeployApp();
  const gpuType = Form.useWatch('gpuType', form) ?? initialValues.gpuType;
  const gpuCount = Form.useWatch('gpuCount', form) ?? initialValues.gpuCount;
  const agreed = Form.useWatch('agreeTerms', form) === true;
  // The server a deploy would use now, and so the price charged: shown before anything is bought.
  const quote = useDeployQuote(image.id, gpuType, gpuCount);
  const product = quote.data;
  const total = product ? deployTotal(product.price, gpuCount) : null;

  const submit = (values: DeployFormValues) => {
    if (!product) return;
    deploy.mutate(
      { payload: buildDeployPayload(image.id, values, product.price), idempotencyKey },
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
  };

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
          <Button
            type="primary"
            data-testid="deploy-submit"
            disabled={!agreed || !product}
            loading={deploy.isPending}
            onClick={() => form.submit()}
          >
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
        <Divider style={{ margin: '12px 0' }} />
        <div data-testid="deploy-price">
          {quote.isError ? (
            <Alert type="warning" showIcon message={withServerDetail('无法获取价格', quote.error)} />
          ) : !product || total === null ? (
            <Skeleton active paragraph={{ rows: 2 }} title={false} />
          ) : (
            <>
              <Descriptions size="small" column={2} style={{ marginBottom: 12 }}>
                <Descriptions.Item label="服务器">{product.name}</Descriptions.Item>
                <Descriptions.Item label="地区">{product.region}</Descriptions.Item>
                <Descriptions.Item label="GPU 型号">{product.gpu_type}</Descriptions.Item>
                <Descriptions.Item label="每小时">
                  <span data-testid="deploy-hourly">{formatYuan(total)}/时</span>
                </Descriptions.Item>
              </Descriptions>
              <PriceSummary
                unitPrice={product.price}
                gpuCount={gpuCount}
                duration={DEPLOY_BILLING.duration}
                billingType={DEPLOY_BILLING.billingType}
                total={total}
              />
              <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
                按小时计费：运行期间每小时 {formatYuan(total)}
                ，按实际运行时长从余额扣费；账户余额需至少可支付1小时费用。
              </Typography.Paragraph>
            </>
          )}
        </div>
        <Form.Item
          name="agreeTerms"
          valuePropName="checked"
          style={{ marginTop: 16, marginBottom: 0 }}
          rules={[ruleFrom((v?: boolean) => (v ? null : MSG_TERMS_REQUIRED))]}
        >
          <Checkbox data-testid="deploy-terms">
            我已阅读并同意
            <Link to="/agreement" target="_blank" rel="noopener noreferrer">
              服务条款
            </Link>
          </Checkbox>
        </Form.Item>
      </Form>
    </Drawer>
  );
}

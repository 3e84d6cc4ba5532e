import type { BillingType, CloudProduct } from '@gpucloud/control-plane/api';
import { App, Checkbox, Descriptions, Divider, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, withServerDetail } from '../../../lib/api-client';
import {
  BILLING_TYPES,
  billingOptionLabel,
  billingTypeInfo,
  validateDuration,
} from '../../../lib/billing-types';
import { ruleFrom } from '../../../lib/form-rules';
import { formatYuan } from '../../../lib/format';
import { MSG_CREATED } from '../../../lib/instances';
import { randomId } from '../../../lib/uuid';
import { useFrameworkVersions } from '../api/get-frameworks';
import { usePurchaseCloudProduct } from '../api/purchase-cloud-product';
import { frameworkPortNumbers } from '../framework-versions';
import { validateMounts } from '../mounts';
import { availableGpus, isWindowsServer } from '../products';
import {
  buildPurchasePayload,
  initialPurchaseValues,
  type PurchaseFormValues,
  type PurchasePreset,
  totalFor,
} from '../purchase';
import type { MountEntry } from '../types';
import { CustomPortsInput } from './custom-ports-input';
import { FrameworkFields } from './framework-fields';
import { MountListInput } from './mount-list-input';
import { PriceSummary } from './price-summary';

export interface PurchaseDialogProps {
  product: CloudProduct;
  billingType: BillingType;
  preset: PurchasePreset;
  onClose: () => void;
}

/** The purchase answers once it is paid; the node then pulls the image and starts the container. */

/** 创建实例: mounted once per opening, so each opening carries its own Idempotency-Key. */
export function PurchaseDialog({ product, billingType, preset, onClose }: PurchaseDialogProps) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<PurchaseFormValues>();
  const [idempotencyKey, setIdempotencyKey] = useState(randomId);
  const [initialValues] = useState(() => initialPurchaseValues(billingType, preset));
  const purchase = usePurchaseCloudProduct();

  const watched = Form.useWatch([], form) as Partial<PurchaseFormValues> | undefined;
  const values = watched ?? initialValues;
  const versions = useFrameworkVersions(values.framework);
  const version = versions.data?.find((v) => v.id === values.frameworkVersion);
  const maxGpus = availableGpus(product);
  const total = totalFor(product, values);
  const selectedBilling = values.billingType ?? billingType;

  const submit = (formValues: PurchaseFormValues) => {
    const payload = buildPurchasePayload(product, formValues, version);
    purchase.mutate(
      { productId: product.id, payload, idempotencyKey },
      {
        onSuccess: () => {
          message.success(MSG_CREATED);
          onClose();
          navigate('/user/containers');
        },
        onError: (error) => {
          message.error(withServerDetail('创建失败', error));
          // A refused purchase (4xx) bought nothing, so a corrected retry is a new purchase. After a
          // timeout or a 5xx the order may exist, so the retry keeps the key and cannot buy twice.
          if (error instanceof ApiError && error.status >= 400 && error.status < 500)
            setIdempotencyKey(randomId());
        },
      },
    );
  };

  return (
    <Modal
      open
      title="创建实例"
      width={760}
      maskClosable={false}
      onCancel={onClose}
      okText="确认创建"
      cancelText="取消"
      onOk={() => form.submit()}
      okButtonProps={{ disabled: values.agreeTerms !== true, loading: purchase.isPending }}
    >
      <Descriptions size="small" column={2} style={{ marginBottom: 16 }}>
        <Descriptions.Item label="服务器">{product.name}</Descriptions.Item>
        <Descriptions.Item label="地区">{product.region}</Descriptions.Item>
        <Descriptions.Item label="GPU 型号">{product.gpu_type}</Descriptions.Item>
        <Descriptions.Item label="单价">{formatYuan(product.price)}/卡/时</Descriptions.Item>
      </Descriptions>
      <Form<PurchaseFormValues>
        form={form}
        name="purchase"
        layout="horizontal"
        labelCol={{ flex: '100px' }}
        initialValues={initialValues}
        onFinish={submit}
      >
        <Form.Item
          label="实例名称"
          name="instanceName"
          rules={[{ required: true, whitespace: true, message: '请输入实例名称' }]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <FrameworkFields
          form={form}
          windowsServer={isWindowsServer(product)}
          preset={preset}
          warmVersionIds={product.warm_version_ids}
        />
        <Form.Item
          label="GPU 数量"
          name="gpuCount"
          rules={[
            { required: true, message: '请选择GPU数量' },
            ruleFrom((v?: number | null) =>
              v && (v < 1 || v > maxGpus) ? `GPU 数量范围为 1-${maxGpus}` : null,
            ),
          ]}
          extra={`当前可用 ${maxGpus} 卡`}
        >
          <InputNumber min={1} max={Math.max(1, maxGpus)} precision={0} suffix="卡" style={{ width: 140 }} />
        </Form.Item>
        <Form.Item label="扩容" name="needExpand" valuePropName="checked">
          <Checkbox>扩容数据盘</Checkbox>
        </Form.Item>
        <Form.Item
          label="计费方式"
          name="billingType"
          rules={[{ required: true, message: '请选择计费方式' }]}
        >
          <Select
            options={BILLING_TYPES.map((t) => ({ value: t.value, label: billingOptionLabel(t.value) }))}
          />
        </Form.Item>
        <Form.Item
          label="使用时长"
          name="duration"
          required
          dependencies={['billingType']}
          rules={[
            ({ getFieldValue }) =>
              ruleFrom((v?: number | null) =>
                validateDuration(v, (getFieldValue('billingType') as BillingType | undefined) ?? billingType),
              ),
          ]}
          extra={`最长 ${billingTypeInfo(selectedBilling).maxDuration} ${billingTypeInfo(selectedBilling).unit}`}
        >
          <InputNumber precision={0} suffix={billingTypeInfo(selectedBilling).unit} style={{ width: 140 }} />
        </Form.Item>
        <Form.Item
          label="挂载点"
          name="mounts"
          rules={[ruleFrom((v?: MountEntry[]) => validateMounts(v ?? []))]}
        >
          <MountListInput nodeId={product.node_id === undefined ? undefined : Number(product.node_id)} />
        </Form.Item>
        <Form.Item label="自定义端口" name="customPorts">
          <CustomPortsInput productId={product.id} frameworkPorts={frameworkPortNumbers(version?.ports)} />
        </Form.Item>
        <Form.Item label="内存">
          <span>32GB</span>
        </Form.Item>
        <Form.Item label="硬盘">
          <span>200GB NVMe</span>
        </Form.Item>
        <Divider style={{ margin: '12px 0' }} />
        <PriceSummary
          unitPrice={product.price}
          gpuCount={values.gpuCount}
          duration={values.duration}
          billingType={values.billingType}
          total={total}
        />
        <Form.Item
          name="agreeTerms"
          valuePropName="checked"
          style={{ marginTop: 16, marginBottom: 0 }}
          rules={[ruleFrom((v?: boolean) => (v ? null : '请同意服务条款'))]}
        >
          <Checkbox>我已阅读并同意服务条款</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}

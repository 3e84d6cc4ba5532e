import type { AdminProduct, ProductInput } from '@gpucloud/control-plane/api';
import { App, Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import { FormDialog } from '../../../components/form-dialog';
import { withServerDetail } from '../../../lib/api-client';
import { ruleFrom } from '../../../lib/form-rules';
import { parseServerConfig } from '../../market/products';
import { useNodes } from '../../nodes/api/get-nodes';
import { useSaveProduct } from '../api/products';
import { checkYuan } from '../rules';
import type { SystemType } from '../types';

interface ProductFormValues {
  node_id?: number;
  name: string;
  region: string;
  gpu_type: string;
  price: number | null;
  no_gpu_price: number | null;
  cpu_model: string;
  cpu_cores: number | null;
  memory: string;
  disk_size: string;
  system_gpu_type: SystemType;
  enabled: boolean;
}

export function productFormValues(product: AdminProduct | null): ProductFormValues {
  if (!product) {
    return {
      name: '',
      region: '',
      gpu_type: '',
      price: null,
      no_gpu_price: 0,
      cpu_model: '',
      cpu_cores: null,
      memory: '32GB',
      disk_size: '200GB NVMe',
      system_gpu_type: 'ubuntu',
      enabled: true,
    };
  }
  return {
    node_id: product.node_id,
    name: product.name,
    region: product.region,
    gpu_type: product.gpu_type,
    price: product.price,
    no_gpu_price: product.no_gpu_price ?? 0,
    cpu_model: product.cpu_model,
    cpu_cores: product.cpu_cores,
    memory: product.memory,
    disk_size: product.disk_size,
    system_gpu_type:
      parseServerConfig(product.server_config).system_gpu_type === 'windows' ? 'windows' : 'ubuntu',
    enabled: product.enabled,
  };
}

/** The PUT/POST body; the enabled switch goes with every save. */
export function productInputFrom(values: ProductFormValues): ProductInput {
  return {
    // The form requires a node; 0 is refused by the server as 请选择节点 all the same.
    node_id: values.node_id ?? 0,
    name: values.name.trim(),
    region: values.region.trim(),
    gpu_type: values.gpu_type.trim(),
    price: values.price ?? 0,
    no_gpu_price: values.no_gpu_price ?? 0,
    cpu_model: (values.cpu_model ?? '').trim(),
    cpu_cores: values.cpu_cores ?? 0,
    memory: (values.memory ?? '').trim(),
    disk_size: (values.disk_size ?? '').trim(),
    server_config: { system_gpu_type: values.system_gpu_type },
    enabled: values.enabled,
  };
}

const required = (message: string) => [{ required: true, whitespace: true, message }];

/** 新建产品 / 编辑产品: a node's offering in the instance market. */
export function ProductDialog({ product, onClose }: { product: AdminProduct | null; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<ProductFormValues>();
  const save = useSaveProduct();
  const nodes = useNodes();
  const editing = product !== null;

  const submit = (values: ProductFormValues) =>
    save.mutate(
      { productId: product?.id, input: productInputFrom(values) },
      {
        onSuccess: () => {
          message.success(editing ? '产品已更新' : '产品已创建');
          onClose();
        },
        onError: (error) => {
          message.error(withServerDetail('保存失败', error));
        },
      },
    );

  return (
    <FormDialog<ProductFormValues>
      width={720}
      title={editing ? '编辑产品' : '新建产品'}
      okText="保存"
      form={form}
      name="product"
      initialValues={productFormValues(product)}
      saving={save.isPending}
      onClose={onClose}
      onFinish={submit}
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item label="节点" name="node_id" rules={[{ required: true, message: '请选择节点' }]}>
            <Select<number>
              placeholder="请选择节点"
              loading={nodes.isPending}
              options={(nodes.data?.items ?? []).map((node) => ({
                value: node.id,
                label: `${node.name}（${node.region}${node.gpu_model ? `，${node.gpu_model}` : ''}）`,
              }))}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="名称"
            name="name"
            rules={[...required('请输入名称'), { max: 128, message: '名称不能超过128个字符' }]}
          >
            <Input placeholder="如 RTX 4090 单卡" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="地区"
            name="region"
            rules={[...required('请输入地区'), { max: 64, message: '地区不能超过64个字符' }]}
          >
            <Input placeholder="如 华东一区" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="GPU 型号"
            name="gpu_type"
            rules={[...required('请输入 GPU 型号'), { max: 128, message: 'GPU 型号不能超过128个字符' }]}
          >
            <Input placeholder="如 RTX 4090" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="单价（元/卡/时）"
            name="price"
            required
            rules={[ruleFrom((v?: number | null) => checkYuan(v, '单价'))]}
          >
            <InputNumber<number> min={0} max={100000} step={0.01} precision={2} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="无卡价格（元/时）"
            name="no_gpu_price"
            required
            rules={[ruleFrom((v?: number | null) => checkYuan(v, '无卡价格'))]}
          >
            <InputNumber<number> min={0} max={100000} step={0.01} precision={2} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="CPU 型号"
            name="cpu_model"
            rules={[{ max: 128, message: 'CPU 型号不能超过128个字符' }]}
          >
            <Input placeholder="如 AMD EPYC 7543" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="CPU 核数"
            name="cpu_cores"
            rules={[{ required: true, message: '请输入 CPU 核数' }]}
          >
            <InputNumber<number> min={0} max={4096} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="内存"
            name="memory"
            rules={[...required('请输入内存'), { max: 32, message: '内存不能超过32个字符' }]}
          >
            <Input placeholder="如 32GB" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="硬盘"
            name="disk_size"
            rules={[...required('请输入硬盘'), { max: 32, message: '硬盘不能超过32个字符' }]}
          >
            <Input placeholder="如 200GB NVMe" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="系统类型" name="system_gpu_type" extra="Windows 服务器只提供 Windows 框架版本">
            <Select
              options={[
                { value: 'ubuntu', label: 'Ubuntu' },
                { value: 'windows', label: 'Windows' },
              ]}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="上架" name="enabled" valuePropName="checked">
            <Switch checkedChildren="上架" unCheckedChildren="下架" />
          </Form.Item>
        </Col>
      </Row>
    </FormDialog>
  );
}

import type { NewNode } from '@gpucloud/control-plane/api';
import { App, Form, Input } from 'antd';
import { FormDialog } from '../../../components/form-dialog';
import { withDetail } from '../../../lib/api-client';
import { ruleFrom } from '../../../lib/form-rules';
import { useCreateNode } from '../api/node-commands';
import { cleanNewNode, validateNodeAddress } from '../node-rules';

export function AddNodeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<NewNode>();
  const create = useCreateNode();

  const submit = (values: NewNode) =>
    create.mutate(cleanNewNode(values), {
      onSuccess: (node) => {
        message.success(`节点 ${node.name} 已添加`);
        form.resetFields();
        onClose();
      },
      onError: (error) => {
        message.error(withDetail('添加节点失败', error));
      },
    });

  return (
    <FormDialog<NewNode>
      open={open}
      title="添加节点"
      okText="添加"
      form={form}
      name="add-node"
      saving={create.isPending}
      onClose={onClose}
      onFinish={submit}
    >
      <Form.Item
        label="名称"
        name="name"
        rules={[{ required: true, whitespace: true, message: '请输入节点名称' }]}
      >
        <Input placeholder="如 gpu-node-01" maxLength={64} />
      </Form.Item>
      <Form.Item
        label="gRPC 地址"
        name="address"
        rules={[ruleFrom((v?: string) => validateNodeAddress(v ?? ''))]}
        extra="节点代理监听的地址，格式 host:port"
      >
        <Input placeholder="10.0.0.12:50051" />
      </Form.Item>
      <Form.Item
        label="令牌"
        name="token"
        rules={[{ required: true, whitespace: true, message: '请输入节点令牌' }]}
      >
        <Input.Password placeholder="节点代理配置中的令牌" autoComplete="off" />
      </Form.Item>
      <Form.Item
        label="地区"
        name="region"
        rules={[{ required: true, whitespace: true, message: '请输入地区' }]}
      >
        <Input placeholder="如 华东一区" />
      </Form.Item>
      <Form.Item
        label="公网地址"
        name="public_host"
        extra="可选，用户连接 SSH 与 Jupyter 时使用的主机名或 IP"
      >
        <Input placeholder="gpu1.example.com" />
      </Form.Item>
    </FormDialog>
  );
}

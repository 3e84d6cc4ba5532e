import type { NewNode } from '@gpucloud/control-plane/api';
import { App, Button, Form, Input, Modal, Space, Tabs } from 'antd';
import { withDetail } from '../../../lib/api-client';
import { ruleFrom } from '../../../lib/form-rules';
import { useCreateNode } from '../api/node-commands';
import { cleanNewNode, validateNodeAddress } from '../node-rules';
import { JoinTokenPanel } from './join-token-panel';

/**
 * 添加节点: 一键加入 makes a one-time join token and the command to paste on the host (the
 * agent joins with mutual TLS, its token made by the control plane); 手动添加 registers an agent
 * already running, by its address and token.
 */
export function AddNodeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      title="添加节点"
      width={760}
      footer={null}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
    >
      <Tabs
        defaultActiveKey="join"
        items={[
          { key: 'join', label: '一键加入', children: <JoinTokenPanel /> },
          { key: 'manual', label: '手动添加', children: <ManualAddForm onDone={onClose} /> },
        ]}
      />
    </Modal>
  );
}

/** 手动添加: an agent already running on the host, by its gRPC address and token. */
function ManualAddForm({ onDone }: { onDone: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<NewNode>();
  const create = useCreateNode();

  const submit = (values: NewNode) =>
    create.mutate(cleanNewNode(values), {
      onSuccess: (node) => {
        message.success(`节点 ${node.name} 已添加`);
        form.resetFields();
        onDone();
      },
      onError: (error) => {
        message.error(withDetail('添加节点失败', error));
      },
    });

  return (
    <Form<NewNode> form={form} name="add-node" layout="vertical" onFinish={submit}>
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
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        <Button onClick={onDone}>取消</Button>
        <Button type="primary" htmlType="submit" loading={create.isPending}>
          添加
        </Button>
      </Space>
    </Form>
  );
}

import { Alert, App, Form, Input, InputNumber, Modal, Select } from 'antd';
import { withDetail } from '../../../lib/api-client';
import { formatYuan } from '../../../lib/format';
import { useAvailableServers } from '../api/get-servers';
import { useCreateMcpContainer } from '../api/mcp-commands';
import { GPU_COUNT_MAX, GPU_COUNT_MIN, MCP_IMAGES, type McpServerOption, MSG_REQUIRED } from '../types';

interface CreateForm {
  name?: string;
  image_name?: string;
  product_id?: number;
  gpu_count?: number | null;
  password?: string;
}

function serverLabel(s: McpServerOption): string {
  const gpus =
    s.gpu_available === undefined ? '' : `，空闲 ${s.gpu_available}/${s.gpu_total ?? s.gpu_available} 卡`;
  const price = s.price === undefined ? '' : `，${formatYuan(s.price)}/卡/小时`;
  return `${s.name}（${s.gpu_type ?? 'GPU'}${gpus}${price}）`;
}

/** Name, image, server (available cloud products), GPU count 1-8 and root password → create. */
export function CreateMcpContainerDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<CreateForm>();
  const servers = useAvailableServers(open);
  const create = useCreateMcpContainer();

  const close = () => {
    form.resetFields();
    create.reset();
    onClose();
  };

  const submit = () => {
    const v = form.getFieldsValue();
    const name = v.name?.trim();
    if (!name || !v.image_name || !v.product_id || !v.password) {
      message.warning(MSG_REQUIRED);
      return;
    }
    const gpuCount = Math.min(
      GPU_COUNT_MAX,
      Math.max(GPU_COUNT_MIN, Math.round(v.gpu_count ?? GPU_COUNT_MIN)),
    );
    create.mutate(
      { name, image_name: v.image_name, product_id: v.product_id, gpu_count: gpuCount, password: v.password },
      {
        onSuccess: (created) => {
          message.success('创建成功');
          if (!created.password_set) {
            message.warning(`容器已创建，但密码未设置：${created.password_error ?? '未知原因'}`);
          }
          close();
        },
        onError: (error) => {
          message.error(withDetail('创建容器失败', error));
        },
      },
    );
  };

  return (
    <Modal
      open={open}
      title="创建容器"
      okText="创建"
      cancelText="取消"
      confirmLoading={create.isPending}
      onOk={submit}
      onCancel={close}
      maskClosable={false}
      destroyOnHidden
    >
      {servers.isError ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message={withDetail('获取服务器列表失败', servers.error)}
        />
      ) : null}
      <Form form={form} layout="vertical" initialValues={{ gpu_count: 1 }}>
        <Form.Item label="名称" name="name" required>
          <Input maxLength={64} placeholder="例如：训练任务" />
        </Form.Item>
        <Form.Item label="镜像" name="image_name" required>
          <Select
            placeholder="请选择镜像"
            options={MCP_IMAGES.map((image) => ({ value: image, label: image }))}
          />
        </Form.Item>
        <Form.Item label="服务器" name="product_id" required>
          <Select
            placeholder="请选择服务器"
            loading={servers.isPending}
            notFoundContent="暂无可用服务器"
            options={(servers.data ?? []).map((s) => ({ value: s.id, label: serverLabel(s) }))}
          />
        </Form.Item>
        <Form.Item label="GPU 数量" name="gpu_count">
          <InputNumber min={GPU_COUNT_MIN} max={GPU_COUNT_MAX} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label="密码" name="password" required extra="root 密码，8-64 个可见英文字符">
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

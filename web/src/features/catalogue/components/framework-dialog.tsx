import type { AdminFramework } from '@gpucloud/control-plane/api';
import { App, Form, Input } from 'antd';
import { FormDialog } from '../../../components/form-dialog';
import { withServerDetail } from '../../../lib/api-client';
import { ruleFrom } from '../../../lib/form-rules';
import { useSaveFramework } from '../api/frameworks';
import { checkPortRows, type PortRow, portRowsFrom, portsMapFrom } from '../rules';
import { PortsMapInput } from './row-inputs';

interface FrameworkFormValues {
  name: string;
  ports: PortRow[];
}

/** 新建框架 / 编辑框架: a name and the default port map of its versions. */
export function FrameworkDialog({
  framework,
  onClose,
}: {
  framework: AdminFramework | null;
  onClose: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<FrameworkFormValues>();
  const save = useSaveFramework();
  const editing = framework !== null;

  const submit = (values: FrameworkFormValues) =>
    save.mutate(
      { frameworkId: framework?.id, input: { name: values.name.trim(), ports: portsMapFrom(values.ports) } },
      {
        onSuccess: () => {
          message.success(editing ? '框架已更新' : '框架已创建');
          onClose();
        },
        onError: (error) => {
          message.error(withServerDetail('保存失败', error));
        },
      },
    );

  return (
    <FormDialog<FrameworkFormValues>
      title={editing ? '编辑框架' : '新建框架'}
      okText="保存"
      form={form}
      name="framework"
      initialValues={{
        name: framework?.name ?? '',
        ports: framework
          ? portRowsFrom(framework.ports)
          : [
              { name: 'ssh', port: 22 },
              { name: 'jupyter', port: 8888 },
            ],
      }}
      saving={save.isPending}
      onClose={onClose}
      onFinish={submit}
    >
      <Form.Item
        label="框架名称"
        name="name"
        rules={[
          { required: true, whitespace: true, message: '请输入框架名称' },
          { max: 64, message: '框架名称不能超过64个字符' },
        ]}
      >
        <Input placeholder="如 PyTorch" />
      </Form.Item>
      <Form.Item
        label="端口映射"
        name="ports"
        extra="容器内端口，新建版本时作为默认值"
        rules={[ruleFrom((rows?: PortRow[]) => checkPortRows(rows ?? []))]}
      >
        <PortsMapInput />
      </Form.Item>
    </FormDialog>
  );
}

import type { GpuNode } from '@gpucloud/control-plane/api';
import { App, DatePicker, Form, Input, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { FormDialog } from '../../../components/form-dialog';
import { withDetail } from '../../../lib/api-client';
import { ruleFrom } from '../../../lib/form-rules';
import { useStartMaintenance } from '../api/node-commands';
import { validateMaintenanceUntil } from '../node-rules';

interface MaintenanceForm {
  until?: Dayjs | null;
  reason?: string;
}

/**
 * 维护: the node leaves the market (nothing new is placed there); its running containers keep
 * running and being billed, and their owners are told by notice with the end date.
 */
export function MaintenanceDialog({ node, onClose }: { node: GpuNode | undefined; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<MaintenanceForm>();
  const start = useStartMaintenance();
  if (!node) return null;

  const submit = (values: MaintenanceForm) => {
    const reason = values.reason?.trim();
    start.mutate(
      {
        id: node.id,
        body: {
          ...(values.until ? { until: values.until.toISOString() } : {}),
          ...(reason ? { reason } : {}),
        },
      },
      {
        onSuccess: () => {
          message.success(`节点 ${node.name} 已进入维护`);
          onClose();
        },
        onError: (error) => {
          message.error(withDetail('进入维护失败', error));
        },
      },
    );
  };

  return (
    <FormDialog<MaintenanceForm>
      title={`维护节点 ${node.name}`}
      okText="进入维护"
      form={form}
      name="node-maintenance"
      saving={start.isPending}
      onClose={onClose}
      onFinish={submit}
    >
      <Typography.Paragraph type="secondary">
        维护期间该节点不再售卖新实例，运行中的容器继续运行并照常计费；容器所有者将收到站内通知。
      </Typography.Paragraph>
      <Form.Item
        label="预计结束时间"
        name="until"
        rules={[ruleFrom((v?: Dayjs | null) => validateMaintenanceUntil(v))]}
        extra="可选，不填则通知中写「另行通知」"
      >
        <DatePicker
          showTime
          format="YYYY-MM-DD HH:mm"
          style={{ width: '100%' }}
          disabledDate={(d) => d.isBefore(dayjs(), 'day')}
        />
      </Form.Item>
      <Form.Item label="维护原因" name="reason" rules={[{ max: 200, message: '维护原因不能超过200个字符' }]}>
        <Input.TextArea rows={3} maxLength={200} placeholder="如 更换电源" />
      </Form.Item>
    </FormDialog>
  );
}

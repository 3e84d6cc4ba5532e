import type { AdminFramework, FrameworkVersion, VersionInput } from '@gpucloud/control-plane/api';
import { App, Checkbox, Form, Input, Radio } from 'antd';
import { FormDialog } from '../../../components/form-dialog';
import { withServerDetail } from '../../../lib/api-client';
import { ruleFrom } from '../../../lib/form-rules';
import type { MountEntry } from '../../market/types';
import { useSaveVersion } from '../api/frameworks';
import {
  checkCustomPorts,
  checkDefaultMounts,
  checkImageRef,
  checkPortRows,
  customPortsFrom,
  type PortRow,
  portRowsFrom,
  portsMapFrom,
} from '../rules';
import type { SystemType } from '../types';
import { DefaultMountsInput, PortsMapInput } from './row-inputs';

interface VersionFormValues {
  version: string;
  image: string;
  cuda_version: string;
  system_type: SystemType;
  ports: PortRow[];
  custom: string;
  mounts: MountEntry[];
  extra_driver_capabilities: string[];
}

/**
 * NVIDIA driver capabilities an image may need beyond compute,utility (which every GPU container
 * gets): video for ffmpeg/NVENC images, graphics for OpenGL/Vulkan, and so on.
 */
const EXTRA_DRIVER_CAPABILITIES = [
  { value: 'video', label: 'video（视频编解码，如 ffmpeg）' },
  { value: 'graphics', label: 'graphics（OpenGL / Vulkan）' },
  { value: 'display', label: 'display（显示输出）' },
  { value: 'compat32', label: 'compat32（32 位兼容库）' },
];

export function versionInputFrom(values: VersionFormValues): VersionInput {
  // The custom list is Windows' way of naming extra ports; other systems use the map only.
  const custom = values.system_type === 'windows' ? (values.custom ?? '').trim() : '';
  return {
    version: values.version.trim(),
    image: values.image.trim(),
    cuda_version: values.cuda_version.trim(),
    system_type: values.system_type,
    ports: { ...portsMapFrom(values.ports), ...(custom ? { custom } : {}) },
    mounts: values.mounts.map((m) => ({ source: m.source.trim(), target: m.target.trim() })),
    extra_driver_capabilities: (values.extra_driver_capabilities ?? []) as NonNullable<
      VersionInput['extra_driver_capabilities']
    >,
  };
}

export interface VersionDialogProps {
  framework: AdminFramework;
  version: FrameworkVersion | null;
  onClose: () => void;
}

/**
 * 新建版本 / 编辑版本: image, CUDA, system type, ports (with Windows' custom list), default mounts,
 * extra NVIDIA driver capabilities (kept as they are when editing).
 */
export function VersionDialog({ framework, version, onClose }: VersionDialogProps) {
  const { message } = App.useApp();
  const [form] = Form.useForm<VersionFormValues>();
  const save = useSaveVersion();
  const systemType = Form.useWatch('system_type', form);
  const editing = version !== null;
  const initialValues: VersionFormValues = {
    version: version?.version ?? '',
    image: version?.image ?? '',
    cuda_version: version?.cuda_version ?? '',
    system_type: version?.system_type === 'windows' ? 'windows' : 'ubuntu',
    ports: portRowsFrom(version ? version.ports : framework.ports),
    custom: customPortsFrom(version?.ports),
    mounts: version?.mounts ?? [],
    extra_driver_capabilities: version?.extra_driver_capabilities ?? [],
  };

  const submit = (values: VersionFormValues) =>
    save.mutate(
      { frameworkId: framework.id, versionId: version?.id, input: versionInputFrom(values) },
      {
        onSuccess: () => {
          message.success(editing ? '版本已更新' : '版本已创建');
          onClose();
        },
        onError: (error) => {
          message.error(withServerDetail('保存失败', error));
        },
      },
    );

  return (
    <FormDialog<VersionFormValues>
      width={640}
      title={`${editing ? '编辑版本' : '新建版本'} - ${framework.name}`}
      okText="保存"
      form={form}
      name="framework-version"
      initialValues={initialValues}
      saving={save.isPending}
      onClose={onClose}
      onFinish={submit}
    >
      <Form.Item
        label="版本"
        name="version"
        rules={[
          { required: true, whitespace: true, message: '请输入版本' },
          { max: 128, message: '版本不能超过128个字符' },
        ]}
      >
        <Input placeholder="如 2.5.1-cuda12.4" />
      </Form.Item>
      <Form.Item
        label="镜像地址"
        name="image"
        required
        rules={[ruleFrom((v?: string) => checkImageRef(v ?? ''))]}
      >
        <Input placeholder="如 pytorch/pytorch:2.5.1-cuda12.4-cudnn9-devel" />
      </Form.Item>
      <Form.Item
        label="CUDA 版本"
        name="cuda_version"
        rules={[{ max: 32, message: 'CUDA 版本不能超过32个字符' }]}
      >
        <Input placeholder="如 12.4（可留空）" />
      </Form.Item>
      <Form.Item
        label="系统类型"
        name="system_type"
        extra="Windows 版本只在系统类型为 Windows 的服务器上提供"
      >
        <Radio.Group
          options={[
            { value: 'ubuntu', label: 'Ubuntu' },
            { value: 'windows', label: 'Windows' },
          ]}
        />
      </Form.Item>
      <Form.Item
        label="端口映射"
        name="ports"
        rules={[ruleFrom((rows?: PortRow[]) => checkPortRows(rows ?? []))]}
      >
        <PortsMapInput />
      </Form.Item>
      {systemType === 'windows' ? (
        <Form.Item
          label="自定义端口（custom）"
          name="custom"
          extra="Windows 镜像的额外端口，格式 名称:端口，多个用逗号分隔，如 rdp:3389,ssh:22"
          rules={[ruleFrom((v?: string) => checkCustomPorts(v ?? ''))]}
        >
          <Input placeholder="rdp:3389,ssh:22" />
        </Form.Item>
      ) : null}
      <Form.Item
        label="默认挂载"
        name="mounts"
        rules={[ruleFrom((rows?: MountEntry[]) => checkDefaultMounts(rows ?? []))]}
      >
        <DefaultMountsInput />
      </Form.Item>
      <Form.Item
        label="额外驱动能力"
        name="extra_driver_capabilities"
        extra="所有 GPU 容器默认具备 compute、utility；镜像需要更多驱动能力时勾选"
      >
        <Checkbox.Group options={EXTRA_DRIVER_CAPABILITIES} />
      </Form.Item>
    </FormDialog>
  );
}

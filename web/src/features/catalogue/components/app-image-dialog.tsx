import type { AppImage, ImageInput } from '@gpucloud/control-plane/api';
import { App, Form, Input, Select } from 'antd';
import { FormDialog } from '../../../components/form-dialog';
import { withServerDetail } from '../../../lib/api-client';
import { ruleFrom } from '../../../lib/form-rules';
import { APP_CATEGORIES } from '../../apps/categories';
import type { AppCategory } from '../../apps/types';
import { useAdminFrameworks } from '../api/frameworks';
import { useSaveImage } from '../api/images';
import { checkIconUrl } from '../rules';

interface ImageFormValues {
  name: string;
  icon: string;
  description: string;
  category: AppCategory;
  framework_version_id?: number;
}

/** 新建应用镜像 / 编辑应用镜像: what the app market shows, and the framework version it runs. */
export function AppImageDialog({ image, onClose }: { image: AppImage | null; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<ImageFormValues>();
  const save = useSaveImage();
  const frameworks = useAdminFrameworks();
  const editing = image !== null;
  const versionOptions = (frameworks.data?.items ?? []).map((framework) => ({
    label: framework.name,
    options: framework.versions.map((version) => ({
      value: version.id,
      label: `${framework.name} ${version.version}${version.system_type === 'windows' ? '（Windows）' : ''}`,
    })),
  }));

  const submit = (values: ImageFormValues) => {
    if (values.framework_version_id === undefined) return;
    const input: ImageInput = {
      name: values.name.trim(),
      icon: (values.icon ?? '').trim(),
      description: (values.description ?? '').trim(),
      category: values.category,
      framework_version_id: values.framework_version_id,
    };
    save.mutate(
      { imageId: image?.id, input },
      {
        onSuccess: () => {
          message.success(editing ? '应用镜像已更新' : '应用镜像已创建');
          onClose();
        },
        onError: (error) => {
          message.error(withServerDetail('保存失败', error));
        },
      },
    );
  };

  return (
    <FormDialog<ImageFormValues>
      width={600}
      title={editing ? '编辑应用镜像' : '新建应用镜像'}
      okText="保存"
      form={form}
      name="app-image"
      initialValues={{
        name: image?.name ?? '',
        icon: image?.icon ?? '',
        description: image?.description ?? '',
        category: (image?.category as AppCategory | undefined) ?? 'all',
        framework_version_id: image?.framework_version_id ?? image?.framework.version.id,
      }}
      saving={save.isPending}
      onClose={onClose}
      onFinish={submit}
    >
      <Form.Item
        label="名称"
        name="name"
        rules={[
          { required: true, whitespace: true, message: '请输入镜像名称' },
          { max: 128, message: '镜像名称不能超过128个字符' },
        ]}
      >
        <Input placeholder="如 PyTorch 2.5.1" />
      </Form.Item>
      <Form.Item
        label="图标地址"
        name="icon"
        extra="可留空，留空时显示默认图标"
        rules={[
          ruleFrom((v?: string) => checkIconUrl(v)),
          { max: 255, message: '图标地址不能超过255个字符' },
        ]}
      >
        <Input placeholder="https://example.com/pytorch.png" />
      </Form.Item>
      <Form.Item label="描述" name="description" rules={[{ max: 2000, message: '描述不能超过2000个字符' }]}>
        <Input.TextArea rows={3} showCount maxLength={2000} />
      </Form.Item>
      <Form.Item label="分类" name="category" rules={[{ required: true, message: '请选择分类' }]}>
        <Select options={APP_CATEGORIES.map((c) => ({ value: c.value, label: c.label }))} />
      </Form.Item>
      <Form.Item
        label="框架版本"
        name="framework_version_id"
        rules={[{ required: true, message: '请选择框架版本' }]}
      >
        <Select<number>
          showSearch
          optionFilterProp="label"
          placeholder="请选择框架版本"
          loading={frameworks.isPending}
          options={versionOptions}
        />
      </Form.Item>
    </FormDialog>
  );
}

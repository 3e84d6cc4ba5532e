import type { UserImage } from '@gpucloud/control-plane/api';
import { App, Form } from 'antd';
import { FormDialog } from '../../../components/form-dialog';
import { withServerDetail } from '../../../lib/api-client';
import { useUpdateImage } from '../api/image-commands';
import { type ImageFormValues, imageBody, imageRef } from '../types';
import { ImageFields } from './image-fields';

/** 重命名: name, tag and description are the image's metadata (the registry is not touched). */
export function RenameImageDialog({ image, onClose }: { image: UserImage; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<ImageFormValues>();
  const update = useUpdateImage();

  const save = (values: ImageFormValues) =>
    update.mutate(
      { id: image.id, body: imageBody(values) },
      {
        onSuccess: () => {
          message.success('修改成功');
          onClose();
        },
        onError: (err) => message.error(withServerDetail('修改失败', err)),
      },
    );

  return (
    <FormDialog<ImageFormValues>
      title={`重命名 - ${imageRef(image)}`}
      okText="确定"
      form={form}
      name="rename-image"
      saving={update.isPending}
      onClose={onClose}
      onFinish={save}
      initialValues={{ name: image.name, tag: image.tag, description: image.description }}
    >
      <ImageFields />
    </FormDialog>
  );
}

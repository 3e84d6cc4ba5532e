import type { Container, UserImage } from '@gpucloud/control-plane/api';
import { Alert, App, Button, Form, Modal, Progress, Result, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { FormDialog } from '../../../components/form-dialog';
import { withServerDetail } from '../../../lib/api-client';
import { formatBytes } from '../../../lib/format';
import { useImages } from '../../images/api/get-images';
import { useSaveImage } from '../../images/api/image-commands';
import { ImageFields } from '../../images/components/image-fields';
import { DEFAULT_TAG, type ImageFormValues, imageBody, imageRef, MSG_PAUSE_NOTE } from '../../images/types';

/** Whether a container in this status can be saved as an image (the server's rule). */
export const canSaveImage = (status: string) => status === 'running' || status === 'stopped';

/** The save after the form: 保存中 n% from the images list (read every second), then the result. */
function SaveProgress({ imageId, onClose }: { imageId: number; onClose: () => void }) {
  const navigate = useNavigate();
  const images = useImages();
  const image: UserImage | undefined = images.data?.images.find((i) => i.id === imageId);
  const status = image?.status ?? 'saving';

  const footer =
    status === 'saving'
      ? [
          <Button key="background" onClick={onClose}>
            后台保存
          </Button>,
        ]
      : [
          <Button key="close" onClick={onClose}>
            关闭
          </Button>,
          status === 'ready' ? (
            <Button key="open" type="primary" onClick={() => navigate(`/user/images/${imageId}`)}>
              查看镜像
            </Button>
          ) : null,
        ];

  return (
    <Modal open title="保存镜像" footer={footer} onCancel={onClose} maskClosable={false}>
      {status === 'saving' ? (
        <div data-testid="save-image-progress">
          <Typography.Paragraph>
            正在保存镜像 {image ? imageRef(image) : ''}，保存中 {Math.round(image?.progress ?? 0)}%
          </Typography.Paragraph>
          <Progress percent={Math.round(image?.progress ?? 0)} status="active" aria-label="保存进度" />
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            关闭此窗口不会中断保存，可在「我的镜像」中查看进度。
          </Typography.Paragraph>
        </div>
      ) : status === 'ready' ? (
        <Result
          status="success"
          title="镜像保存成功"
          subTitle={image ? `${imageRef(image)}，大小 ${formatBytes(image.size_bytes)}` : undefined}
        />
      ) : (
        <Result
          status="error"
          title="镜像保存失败"
          subTitle={image?.error ?? '保存失败，请重试'}
          extra={<Typography.Text type="secondary">容器未受影响，保持保存前的状态。</Typography.Text>}
        />
      )}
    </Modal>
  );
}

/** 保存镜像: name, tag (latest) and description, then the save's progress and result. */
export function SaveImageDialog({ container, onClose }: { container: Container; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<ImageFormValues>();
  const save = useSaveImage();
  const [imageId, setImageId] = useState<number | null>(null);

  if (imageId !== null) return <SaveProgress imageId={imageId} onClose={onClose} />;

  const submit = (values: ImageFormValues) =>
    save.mutate(
      { containerId: container.container_id, body: imageBody(values) },
      {
        onSuccess: (answer) => setImageId(answer.image_id),
        onError: (err) => message.error(withServerDetail('保存镜像失败', err)),
      },
    );

  return (
    <FormDialog<ImageFormValues>
      title={`保存镜像 - ${container.name || container.container_id}`}
      okText="保存"
      form={form}
      name="save-image"
      saving={save.isPending}
      onClose={onClose}
      onFinish={submit}
      initialValues={{ name: '', tag: DEFAULT_TAG, description: '' }}
    >
      {container.status === 'running' ? (
        <Alert type="info" showIcon message={MSG_PAUSE_NOTE} style={{ marginBottom: 16 }} />
      ) : (
        <Alert type="info" showIcon message="挂载的存储卷不会保存到镜像中。" style={{ marginBottom: 16 }} />
      )}
      <ImageFields />
    </FormDialog>
  );
}

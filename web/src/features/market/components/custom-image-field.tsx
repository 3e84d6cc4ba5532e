import { Form, type FormInstance, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { errorDetail } from '../../../lib/api-client';
import { formatBytes } from '../../../lib/format';
import { useImages } from '../../images/api/get-images';
import { imageRef } from '../../images/types';
import type { PurchaseFormValues } from '../purchase';

/** 自定义镜像: one of the user's saved images that is ready (any node can pull it). */
export function CustomImageField({ form }: { form: FormInstance<PurchaseFormValues> }) {
  const images = useImages();
  const ready = (images.data?.images ?? []).filter((image) => image.status === 'ready');
  const chosen = Form.useWatch('customImageId', form);

  // A preselected image (/market?imageType=custom&image=) that is not ready, or not the user's, is dropped.
  useEffect(() => {
    if (!images.isSuccess || chosen === undefined) return;
    if (!ready.some((image) => image.id === chosen)) form.setFieldValue('customImageId', undefined);
  }, [images.isSuccess, ready, chosen, form]);

  return (
    <Form.Item
      label="镜像"
      name="customImageId"
      rules={[{ required: true, message: '请选择镜像' }]}
      help={images.isError ? `获取镜像列表失败：${errorDetail(images.error)}` : undefined}
      validateStatus={images.isError ? 'error' : undefined}
      extra={
        images.isSuccess && ready.length === 0 ? (
          <Typography.Text type="secondary">
            暂无可用的自定义镜像，可在「我的容器」中保存镜像，或前往 <Link to="/user/images">我的镜像</Link>{' '}
            查看
          </Typography.Text>
        ) : undefined
      }
    >
      <Select<number>
        placeholder="请选择镜像"
        loading={images.isPending}
        options={ready.map((image) => ({
          value: image.id,
          label: `${imageRef(image)}（${formatBytes(image.size_bytes)}）`,
        }))}
      />
    </Form.Item>
  );
}

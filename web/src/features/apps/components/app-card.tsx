import type { AppImage } from '@gpucloud/control-plane/api';
import { Button, Card, Flex, Space, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { AppIcon } from './app-icon';

/** 更新于: an image is not edited in place after it is made, so its creation date. */
export function updatedOn(image: Pick<AppImage, 'created_at'>): string {
  const parsed = image.created_at ? dayjs(image.created_at) : null;
  return parsed?.isValid() ? parsed.format('YYYY-MM-DD') : '-';
}

export interface AppCardProps {
  image: AppImage;
  onDeploy: (image: AppImage) => void;
  onDetails: (image: AppImage) => void;
}

/** One image of the market: icon, name, framework and version tags, description, version, date. */
export function AppCard({ image, onDeploy, onDetails }: AppCardProps) {
  const version = image.framework.version;
  return (
    <Card
      hoverable
      data-testid={`app-card-${image.id}`}
      style={{ height: '100%' }}
      styles={{ body: { height: '100%', display: 'flex', flexDirection: 'column', gap: 12 } }}
    >
      <Flex gap={12} align="flex-start">
        <AppIcon icon={image.icon} name={image.name} />
        <Flex vertical gap={6} style={{ minWidth: 0 }}>
          <Typography.Title level={5} style={{ margin: 0 }} ellipsis={{ tooltip: image.name }}>
            {image.name}
          </Typography.Title>
          <Space size={[4, 4]} wrap>
            <Tag color="blue">{image.framework.name}</Tag>
            {version.name ? <Tag>{version.name}</Tag> : null}
            {version.cuda_version ? <Tag color="green">CUDA {version.cuda_version}</Tag> : null}
          </Space>
        </Flex>
      </Flex>
      <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, flex: 1 }}>
        {image.description || '暂无描述'}
      </Typography.Paragraph>
      <Flex justify="space-between" wrap gap={4}>
        <Typography.Text type="secondary">版本：{version.name || '-'}</Typography.Text>
        <Typography.Text type="secondary">更新于 {updatedOn(image)}</Typography.Text>
      </Flex>
      <Flex gap={8}>
        <Button type="primary" block onClick={() => onDeploy(image)}>
          立即部署
        </Button>
        <Button block onClick={() => onDetails(image)}>
          详情
        </Button>
      </Flex>
    </Card>
  );
}

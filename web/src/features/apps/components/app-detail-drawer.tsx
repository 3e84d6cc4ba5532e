import type { AppImage } from '@gpucloud/control-plane/api';
import { Button, Descriptions, Drawer, Flex, Space, Tag, Typography } from 'antd';
import { formatDateTime } from '../../../lib/format';
import { categoryLabel } from '../categories';
import { updatedOn } from './app-card';
import { AppIcon } from './app-icon';

export interface AppDetailDrawerProps {
  image: AppImage | null;
  onClose: () => void;
  onDeploy: (image: AppImage) => void;
  onQuickDeploy: (image: AppImage) => void;
}

/** 详情: everything the market knows about an image, with both ways to deploy it. */
export function AppDetailDrawer({ image, onClose, onDeploy, onQuickDeploy }: AppDetailDrawerProps) {
  return (
    <Drawer
      title="应用详情"
      open={image !== null}
      onClose={onClose}
      width={560}
      footer={
        image ? (
          <Flex justify="flex-end" gap={8}>
            <Button onClick={() => onQuickDeploy(image)}>一键部署</Button>
            <Button type="primary" onClick={() => onDeploy(image)}>
              立即部署
            </Button>
          </Flex>
        ) : null
      }
    >
      {image ? (
        <Flex vertical gap={16}>
          <Flex gap={12} align="center">
            <AppIcon icon={image.icon} name={image.name} size={56} />
            <Space direction="vertical" size={4}>
              <Typography.Title level={4} style={{ margin: 0 }}>
                {image.name}
              </Typography.Title>
              <Space size={4} wrap>
                <Tag color="blue">{image.framework.name}</Tag>
                <Tag>{categoryLabel(image.category)}</Tag>
              </Space>
            </Space>
          </Flex>
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label="框架">{image.framework.name}</Descriptions.Item>
            <Descriptions.Item label="版本">{image.framework.version.name || '-'}</Descriptions.Item>
            <Descriptions.Item label="CUDA 版本">
              {image.framework.version.cuda_version || '-'}
            </Descriptions.Item>
            <Descriptions.Item label="分类">{categoryLabel(image.category)}</Descriptions.Item>
            <Descriptions.Item label="创建时间">{formatDateTime(image.created_at)}</Descriptions.Item>
            <Descriptions.Item label="更新日期">{updatedOn(image)}</Descriptions.Item>
            <Descriptions.Item label="描述">
              <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>
                {image.description || '暂无描述'}
              </Typography.Paragraph>
            </Descriptions.Item>
          </Descriptions>
          <Typography.Text type="secondary">
            「立即部署」前往轻量实例市场选择服务器与计费方式；「一键部署」按小时计费，自动选择满足条件的最低价服务器。
          </Typography.Text>
        </Flex>
      ) : null}
    </Drawer>
  );
}

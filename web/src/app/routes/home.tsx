import {
  CloudServerOutlined,
  DollarOutlined,
  RocketOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import { Card, Col, Flex, Row, Statistic, Typography } from 'antd';
import type { ReactNode } from 'react';
import { LinkButton } from '../../components/link-button';

interface Feature {
  icon: ReactNode;
  title: string;
  text: string;
}

const FEATURES: Feature[] = [
  { icon: <CloudServerOutlined />, title: 'GPU 集群', text: '多地区 GPU 节点，按需选择卡型与数量。' },
  { icon: <RocketOutlined />, title: '一键环境', text: 'PyTorch、TensorFlow 等框架镜像开箱即用。' },
  { icon: <DollarOutlined />, title: '灵活计费', text: '按小时计费，包日、包周、包月、包年更优惠。' },
  { icon: <SafetyCertificateOutlined />, title: '安全隔离', text: '容器独立运行，数据卷按用户隔离。' },
];

export function Component() {
  return (
    <div>
      <Flex
        vertical
        align="center"
        style={{
          padding: '80px 16px',
          textAlign: 'center',
          background: 'linear-gradient(135deg, #0b1f4b 0%, #1677ff 100%)',
          borderRadius: 12,
          color: '#fff',
        }}
      >
        <Typography.Title style={{ color: '#fff', marginBottom: 16 }}>
          面向 AI 开发者的 GPU 云平台
        </Typography.Title>
        <Typography.Paragraph style={{ color: 'rgba(255,255,255,0.85)', fontSize: 16, maxWidth: 640 }}>
          按需租用 GPU 容器，预装主流深度学习框架，SSH 与 Jupyter 即开即用。新用户注册即送 20 元体验金。
        </Typography.Paragraph>
        <LinkButton to="/market" type="primary" size="large" style={{ background: '#fff', color: '#1677ff' }}>
          立即体验
        </LinkButton>
      </Flex>

      <Row gutter={[16, 16]} style={{ marginTop: 32 }}>
        {FEATURES.map((feature) => (
          <Col key={feature.title} xs={24} sm={12} lg={6}>
            <Card style={{ height: '100%' }}>
              <div style={{ fontSize: 28, color: '#1677ff' }}>{feature.icon}</div>
              <Typography.Title level={4}>{feature.title}</Typography.Title>
              <Typography.Text type="secondary">{feature.text}</Typography.Text>
            </Card>
          </Col>
        ))}
      </Row>

      <Row gutter={16} style={{ marginTop: 32, textAlign: 'center' }}>
        <Col span={8}>
          <Statistic title="GPU 节点" value="50+" />
        </Col>
        <Col span={8}>
          <Statistic title="常用 AI 应用" value="20+" />
        </Col>
        <Col span={8}>
          <Statistic title="服务可用性" value="99.9%" />
        </Col>
      </Row>
    </div>
  );
}

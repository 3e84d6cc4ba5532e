import { Alert, Descriptions, Drawer, Empty, List, Skeleton, Space, Tag, Typography } from 'antd';
import { errorDetail } from '../../../lib/api-client';
import { formatDateTime, formatYuan } from '../../../lib/format';
import { useAdminUser } from '../api/get-users';

/** One user: account, balance, containers; orders arrive with the billing module. */
export function UserDetailDrawer({ userId, onClose }: { userId: number | null; onClose: () => void }) {
  const detail = useAdminUser(userId);
  const u = detail.data;
  return (
    <Drawer open={userId !== null} onClose={onClose} title="用户详情" width={640} destroyOnHidden>
      {detail.isPending ? <Skeleton active /> : null}
      {detail.isError ? (
        <Alert type="error" showIcon message="获取用户信息失败" description={errorDetail(detail.error)} />
      ) : null}
      {u ? (
        <Space direction="vertical" size={24} style={{ width: '100%' }}>
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label="用户名">{u.username}</Descriptions.Item>
            <Descriptions.Item label="昵称">{u.nickname || '-'}</Descriptions.Item>
            <Descriptions.Item label="余额">{formatYuan(u.balance)}</Descriptions.Item>
            <Descriptions.Item label="邮箱">
              {u.email || '-'} {u.is_email_verified ? <Tag color="success">已验证</Tag> : null}
            </Descriptions.Item>
            <Descriptions.Item label="手机号">
              {u.phone || '-'} {u.is_phone_verified ? <Tag color="success">已验证</Tag> : null}
            </Descriptions.Item>
            <Descriptions.Item label="微信">
              {u.is_wechat_bound ? `已绑定（${u.wechat_nickname ?? ''}）` : '未绑定'}
            </Descriptions.Item>
            <Descriptions.Item label="角色">{u.is_admin ? '管理员' : '用户'}</Descriptions.Item>
            <Descriptions.Item label="状态">
              {u.disabled ? <Tag color="error">已禁用</Tag> : <Tag color="success">正常</Tag>}
            </Descriptions.Item>
            <Descriptions.Item label="注册时间">{formatDateTime(u.created_at)}</Descriptions.Item>
            <Descriptions.Item label="最近登录">{formatDateTime(u.last_login_at)}</Descriptions.Item>
          </Descriptions>
          <div>
            <Typography.Title level={5}>容器（{u.containers.length}）</Typography.Title>
            <List
              size="small"
              bordered
              dataSource={u.containers}
              locale={{ emptyText: '暂无容器' }}
              renderItem={(c) => (
                <List.Item>
                  <Space direction="vertical" size={0}>
                    <Typography.Text strong>
                      {c.name} <Typography.Text type="secondary">{c.container_id}</Typography.Text>
                    </Typography.Text>
                    <Typography.Text type="secondary">
                      {c.node_name} · {c.gpu_type} × {c.gpu_count} · {formatDateTime(c.create_time)}
                    </Typography.Text>
                  </Space>
                  <Tag>{c.status}</Tag>
                </List.Item>
              )}
            />
          </div>
          <div>
            <Typography.Title level={5}>订单</Typography.Title>
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无订单（订单功能即将上线）" />
          </div>
        </Space>
      ) : null}
    </Drawer>
  );
}

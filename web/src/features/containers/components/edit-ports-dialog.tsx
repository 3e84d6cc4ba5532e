import type { Container } from '@gpucloud/control-plane/api';
import { Alert, App, Button, Empty, Flex, Input, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { withServerDetail } from '../../../lib/api-client';
import { useUpdateContainerPorts } from '../api/container-commands';
import { checkContainerPort, frameworkPortsOf, MAX_CONTAINER_PORTS } from '../container-config';

/** 修改端口: the custom ports (10000-20000, host port = container port) of an existing container. */
export function EditPortsDialog({ container, onClose }: { container: Container; onClose: () => void }) {
  const { message } = App.useApp();
  const update = useUpdateContainerPorts();
  const [ports, setPorts] = useState<number[]>(() => [...(container.custom_ports ?? [])]);
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const frameworkPorts = frameworkPortsOf(container);
  const running = container.status === 'running' || container.status === 'starting';

  const add = () => {
    const result = checkContainerPort(input, { added: ports, frameworkPorts });
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setError(null);
    setInput('');
    setPorts([...ports, result.port].sort((a, b) => a - b));
  };

  const save = () =>
    update.mutate(
      { id: container.container_id, ports },
      {
        onSuccess: () => {
          message.success('端口映射已更新');
          onClose();
        },
        // A refused change (400/409) carries the reason, e.g. "12000端口已被占用".
        onError: (err) => {
          message.error(withServerDetail('更新端口映射失败', err));
        },
      },
    );

  return (
    <Modal
      open
      title={`修改端口 - ${container.name || container.container_id}`}
      okText="保存"
      cancelText="取消"
      onOk={save}
      onCancel={onClose}
      okButtonProps={{ loading: update.isPending }}
      maskClosable={false}
    >
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <Alert
          type="warning"
          showIcon
          message={
            running
              ? '保存后容器将重启以应用新的端口映射，容器内已写入的文件会保留。'
              : '保存后容器将按新的端口映射重建，启动后生效，容器内已写入的文件会保留。'
          }
        />
        <Typography.Text type="secondary">
          自定义端口范围 10000-20000，主机端口与容器端口相同，最多 {MAX_CONTAINER_PORTS} 个。
        </Typography.Text>
        <Space.Compact style={{ width: '100%' }}>
          <Input
            aria-label="端口号"
            placeholder="如 12000"
            value={input}
            status={error ? 'error' : undefined}
            onChange={(event) => setInput(event.target.value)}
            onPressEnter={add}
          />
          <Button onClick={add}>添加</Button>
        </Space.Compact>
        {error ? (
          <Typography.Text type="danger" role="alert">
            {error}
          </Typography.Text>
        ) : null}
        <div data-testid="port-list">
          {ports.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无自定义端口" />
          ) : (
            <Flex gap={4} wrap>
              {ports.map((port) => (
                <Tag
                  key={port}
                  closable={{ 'aria-label': `删除端口${port}` }}
                  onClose={() => setPorts(ports.filter((p) => p !== port))}
                >
                  {port}
                </Tag>
              ))}
            </Flex>
          )}
        </div>
        {frameworkPorts.length > 0 ? (
          <Typography.Text type="secondary">
            框架端口：
            {Object.entries(container.frame_ports ?? {})
              .map(([inner, host]) => `${inner} → ${host}`)
              .join('，')}
          </Typography.Text>
        ) : null}
      </Space>
    </Modal>
  );
}

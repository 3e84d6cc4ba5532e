import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Descriptions, Flex, Input, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { withServerDetail } from '../../../lib/api-client';
import { useUpdateContainerMounts } from '../api/container-commands';
import {
  checkMountRow,
  checkMounts,
  MAX_CONTAINER_MOUNTS,
  type MountRow,
  MSG_MOUNTS_MAX,
} from '../container-config';
import type { Container } from '../types';

function MountSummary({ mounts }: { mounts: readonly MountRow[] }) {
  if (mounts.length === 0) return <Typography.Text type="secondary">无</Typography.Text>;
  return (
    <Space direction="vertical" size={0}>
      {mounts.map((m) => (
        <Typography.Text key={`${m.source}:${m.target}`} className="mono">
          {m.source} → {m.target}
        </Typography.Text>
      ))}
    </Space>
  );
}

/** 修改挂载: the container's mounts, saved now and applied at the next start. */
export function EditMountsDialog({ container, onClose }: { container: Container; onClose: () => void }) {
  const { message } = App.useApp();
  const update = useUpdateContainerMounts();
  const [rows, setRows] = useState<MountRow[]>(() =>
    (container.pending_mounts ?? container.mounts ?? []).map((m) => ({ ...m })),
  );
  const [submitted, setSubmitted] = useState(false);
  const problem = checkMounts(rows);

  const edit = (index: number, patch: Partial<MountRow>) =>
    setRows(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  const add = () => {
    if (rows.length >= MAX_CONTAINER_MOUNTS) {
      message.warning(MSG_MOUNTS_MAX);
      return;
    }
    setRows([...rows, { source: '', target: '' }]);
  };

  const save = () => {
    setSubmitted(true);
    if (problem) return;
    update.mutate(
      {
        id: container.container_id,
        mounts: rows.map((r) => ({ source: r.source.trim(), target: r.target.trim() })),
      },
      {
        onSuccess: () => {
          message.success('挂载点已更新，重启生效！');
          onClose();
        },
        onError: (err) => {
          message.error(withServerDetail('更新挂载点失败', err));
        },
      },
    );
  };

  return (
    <Modal
      open
      width={640}
      title={`修改挂载 - ${container.name || container.container_id}`}
      okText="保存"
      cancelText="取消"
      onOk={save}
      onCancel={onClose}
      okButtonProps={{ loading: update.isPending }}
      maskClosable={false}
    >
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <Alert type="info" showIcon message="挂载点修改保存后，将在容器下次启动时生效。" />
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label="当前挂载">
            <MountSummary mounts={container.mounts ?? []} />
          </Descriptions.Item>
          {container.pending_mounts ? (
            <Descriptions.Item
              label={
                <Space size={4}>
                  待生效
                  <Tag color="gold">待重启生效</Tag>
                </Space>
              }
            >
              <MountSummary mounts={container.pending_mounts} />
            </Descriptions.Item>
          ) : null}
        </Descriptions>
        {rows.map((row, index) => {
          const rowProblem = submitted || row.source || row.target ? checkMountRow(row) : null;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own while being edited
            <Flex key={index} vertical gap={4}>
              <Flex gap={8} align="center">
                <Input
                  aria-label={`挂载点${index + 1}源路径`}
                  placeholder="源路径（存储卷名），如 data01"
                  value={row.source}
                  status={rowProblem ? 'error' : undefined}
                  onChange={(event) => edit(index, { source: event.target.value })}
                />
                <Input
                  aria-label={`挂载点${index + 1}目标路径`}
                  placeholder="容器内路径，如 /root/data"
                  value={row.target}
                  status={rowProblem ? 'error' : undefined}
                  onChange={(event) => edit(index, { target: event.target.value })}
                />
                <Button
                  type="text"
                  danger
                  aria-label={`删除挂载点${index + 1}`}
                  icon={<DeleteOutlined />}
                  onClick={() => setRows(rows.filter((_, i) => i !== index))}
                />
              </Flex>
              {rowProblem ? (
                <Typography.Text type="danger" role="alert">
                  {rowProblem}
                </Typography.Text>
              ) : null}
            </Flex>
          );
        })}
        <Button icon={<PlusOutlined />} onClick={add}>
          添加挂载点
        </Button>
      </Space>
    </Modal>
  );
}

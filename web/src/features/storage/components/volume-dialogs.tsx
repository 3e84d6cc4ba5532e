import type { Volume } from '@gpucloud/control-plane/api';
import { App, Form, Input, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { withServerDetail } from '../../../lib/api-client';
import { useStorageNodes } from '../api/get-volumes';
import { useCreateVolume, useRenameVolume } from '../api/storage-commands';
import { checkNewVolume, checkRename, checkVolumeName, checkVolumePath, initialRename } from '../types';

/** 新建存储卷: name (prefixed with the username by the server), the default mount path, the node. */
export function CreateVolumeDialog({ username, onClose }: { username: string; onClose: () => void }) {
  const { message } = App.useApp();
  const create = useCreateVolume();
  const nodes = useStorageNodes();
  const [name, setName] = useState('');
  const [path, setPath] = useState('/root/data');
  const [nodeId, setNodeId] = useState<number | undefined>();
  const [submitted, setSubmitted] = useState(false);
  const problem = checkNewVolume(name, path);
  const nameProblem = checkVolumeName(name);
  const pathProblem = checkVolumePath(path);
  const nodeList = nodes.data ?? [];
  const chosenNode = nodeId ?? nodeList[0]?.id;

  const save = () => {
    setSubmitted(true);
    if (problem) {
      message.error(problem);
      return;
    }
    create.mutate(
      { name: name.trim(), path: path.trim(), ...(chosenNode === undefined ? {} : { node_id: chosenNode }) },
      {
        onSuccess: () => {
          message.success('创建成功');
          onClose();
        },
        onError: (err) => message.error(withServerDetail('创建存储卷失败', err)),
      },
    );
  };

  return (
    <Modal
      open
      title="新建存储卷"
      okText="创建"
      cancelText="取消"
      onOk={save}
      onCancel={onClose}
      okButtonProps={{ loading: create.isPending }}
      maskClosable={false}
    >
      <Form layout="vertical">
        <Form.Item
          label="名称"
          required
          help={(submitted && nameProblem) || `完整名称：${username}-${name.trim() || '…'}`}
          validateStatus={submitted && nameProblem ? 'error' : undefined}
        >
          <Input
            aria-label="存储卷名称"
            addonBefore={`${username}-`}
            placeholder="如 datasets"
            value={name}
            maxLength={48}
            onChange={(event) => setName(event.target.value)}
          />
        </Form.Item>
        <Form.Item
          label="路径"
          required
          tooltip="挂载到容器时的默认路径"
          help={submitted && pathProblem ? pathProblem : undefined}
          validateStatus={submitted && pathProblem ? 'error' : undefined}
        >
          <Input
            aria-label="存储卷路径"
            placeholder="/root/data"
            value={path}
            onChange={(event) => setPath(event.target.value)}
          />
        </Form.Item>
        {nodeList.length > 1 ? (
          <Form.Item label="存储节点" tooltip="存储卷只能挂载到同一节点上的容器">
            <Select
              aria-label="存储节点"
              value={chosenNode}
              onChange={setNodeId}
              options={nodeList.map((n) => ({ value: n.id, label: `${n.region} · ${n.name}` }))}
            />
          </Form.Item>
        ) : nodes.isSuccess && nodeList.length === 0 ? (
          <Typography.Text type="warning">暂无可用的存储节点</Typography.Text>
        ) : null}
      </Form>
    </Modal>
  );
}

/** 重命名: the part after the username; letters, digits, _ and -, not a name the user already has. */
export function RenameVolumeDialog({
  volume,
  volumes,
  username,
  onClose,
}: {
  volume: Volume;
  volumes: readonly Volume[];
  username: string;
  onClose: () => void;
}) {
  const { message } = App.useApp();
  const rename = useRenameVolume();
  const [newName, setNewName] = useState(() => initialRename(volume.name));
  const problem = checkRename(
    newName,
    username,
    volumes.filter((v) => v.id !== volume.id),
  );

  const save = () => {
    if (problem) return;
    rename.mutate(
      { id: volume.id, newName: newName.trim() },
      {
        onSuccess: () => {
          message.success('修改成功');
          onClose();
        },
        onError: (err) => message.error(withServerDetail('修改失败', err)),
      },
    );
  };

  return (
    <Modal
      open
      title={`重命名 - ${volume.name}`}
      okText="确定"
      cancelText="取消"
      onOk={save}
      onCancel={onClose}
      okButtonProps={{ disabled: problem !== null, loading: rename.isPending }}
      maskClosable={false}
    >
      <Form layout="vertical">
        <Form.Item label="新名称" validateStatus={problem ? 'error' : undefined} help={problem ?? undefined}>
          <Input
            aria-label="新名称"
            addonBefore={`${username}-`}
            value={newName}
            maxLength={48}
            onChange={(event) => setNewName(event.target.value)}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

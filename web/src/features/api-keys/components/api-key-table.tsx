import type { ApiKey } from '@gpucloud/control-plane/api';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { App, Button, Input, Modal, Popconfirm, Space, Typography } from 'antd';
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { DataTable } from '../../../components/data-table';
import { errorDetail, withDetail } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { revealApiKey, useDeleteApiKey } from '../api/api-key-commands';
import { REVEAL_MS } from '../types';

interface Revealed {
  keys: Record<number, string>;
  /** Resolves once shown; rejects with the server's refusal (a wrong password). */
  reveal(id: number, password: string): Promise<void>;
  hide(id: number): void;
}

/** What is revealed lives in a context, so the columns stay constant and rows never remount. */
const RevealedContext = createContext<Revealed>({ keys: {}, reveal: async () => {}, hide: () => {} });

/** Revealed keys by id; each one is masked again after 10 s. */
function useRevealed(): Revealed {
  const [keys, setKeys] = useState<Record<number, string>>({});
  const timers = useRef(new Map<number, number>());
  useEffect(() => {
    const all = timers.current;
    return () => {
      for (const timer of all.values()) window.clearTimeout(timer);
    };
  }, []);
  const hide = (id: number) => {
    window.clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setKeys(({ [id]: _gone, ...rest }) => rest);
  };
  const reveal = async (id: number, password: string) => {
    const answer = await revealApiKey(id, password);
    window.clearTimeout(timers.current.get(id));
    setKeys((current) => ({ ...current, [id]: answer.key }));
    timers.current.set(
      id,
      window.setTimeout(() => hide(id), REVEAL_MS),
    );
  };
  return { keys, reveal, hide };
}

function KeyCell({ apiKey }: { apiKey: ApiKey }) {
  const full = useContext(RevealedContext).keys[apiKey.id];
  return (
    <Typography.Text className="mono" copyable={full ? { text: full } : false} data-testid="api-key-value">
      {full ?? apiKey.key}
    </Typography.Text>
  );
}

/** 显示 asks for the login password first (the server checks it again before answering the key). */
function RevealButton({ apiKey }: { apiKey: ApiKey }) {
  const { message } = App.useApp();
  const revealed = useContext(RevealedContext);
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const close = () => {
    setAsking(false);
    setPassword('');
  };
  const confirm = async () => {
    if (!password) {
      message.error('请输入登录密码');
      return;
    }
    setPending(true);
    try {
      await revealed.reveal(apiKey.id, password);
      close();
    } catch (error) {
      message.error(withDetail('显示密钥失败', error));
    } finally {
      setPending(false);
    }
  };
  if (revealed.keys[apiKey.id])
    return (
      <Button type="link" size="small" onClick={() => revealed.hide(apiKey.id)}>
        隐藏
      </Button>
    );
  return (
    <>
      <Button type="link" size="small" onClick={() => setAsking(true)}>
        显示
      </Button>
      <Modal
        open={asking}
        title="验证登录密码"
        okText="确定"
        cancelText="取消"
        confirmLoading={pending}
        onOk={() => void confirm()}
        onCancel={close}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">
          查看完整密钥前，请输入当前账号的登录密码。
        </Typography.Paragraph>
        <Input.Password
          autoFocus
          aria-label="登录密码"
          placeholder="请输入登录密码"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          onPressEnter={() => void confirm()}
        />
      </Modal>
    </>
  );
}

function DeleteButton({ apiKey }: { apiKey: ApiKey }) {
  const { message } = App.useApp();
  const remove = useDeleteApiKey();
  return (
    <Popconfirm
      title="删除 API 密钥"
      description={`确定删除密钥「${apiKey.name}」吗？使用它的程序将无法再访问。`}
      okText="确定"
      cancelText="取消"
      okButtonProps={{ danger: true }}
      onConfirm={() =>
        remove.mutateAsync(apiKey.id).then(
          () => {
            message.success('删除成功');
          },
          (error: unknown) => {
            message.error(`删除 API 密钥失败: ${errorDetail(error)}`);
          },
        )
      }
    >
      <Button type="link" size="small" danger loading={remove.isPending}>
        删除
      </Button>
    </Popconfirm>
  );
}

const column = createColumnHelper<ApiKey>();
const columns = [
  column.accessor('name', { header: '名称' }),
  column.accessor('key', { header: '密钥', cell: ({ row }) => <KeyCell apiKey={row.original} /> }),
  column.accessor('created_at', { header: '创建时间', cell: (info) => formatDateTime(info.getValue()) }),
  column.accessor('last_used_at', { header: '最近使用', cell: (info) => formatDateTime(info.getValue()) }),
  column.display({
    id: 'actions',
    header: '操作',
    cell: ({ row }) => (
      <Space size={0}>
        <RevealButton apiKey={row.original} />
        <DeleteButton apiKey={row.original} />
      </Space>
    ),
  }),
];

export function ApiKeyTable({ keys, loading }: { keys: ApiKey[]; loading: boolean }) {
  const revealed = useRevealed();
  const table = useReactTable({
    data: keys,
    columns,
    rowCount: keys.length,
    getRowId: (row) => String(row.id),
    getCoreRowModel: getCoreRowModel(),
  });
  return (
    <RevealedContext.Provider value={revealed}>
      <DataTable
        table={table}
        loading={loading}
        aria-label="API 密钥列表"
        emptyText="暂无 API 密钥"
        rowTestId={(row) => `api-key-row-${row.id}`}
      />
    </RevealedContext.Provider>
  );
}

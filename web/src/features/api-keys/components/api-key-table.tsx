import type { ApiKey } from '@gpucloud/control-plane/api';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { App, Button, Popconfirm, Space, Typography } from 'antd';
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { DataTable } from '../../../components/data-table';
import { errorDetail, withDetail } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { revealApiKey, useDeleteApiKey } from '../api/api-key-commands';
import { REVEAL_MS } from '../types';

interface Revealed {
  keys: Record<number, string>;
  reveal(id: number): void;
  hide(id: number): void;
}

/** What is revealed lives in a context, so the columns stay constant and rows never remount. */
const RevealedContext = createContext<Revealed>({ keys: {}, reveal: () => {}, hide: () => {} });

/** Revealed keys by id; each one is masked again after 10 s. */
function useRevealed(onError: (error: unknown) => void): Revealed {
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
  const reveal = (id: number) => {
    revealApiKey(id).then((answer) => {
      window.clearTimeout(timers.current.get(id));
      setKeys((current) => ({ ...current, [id]: answer.key }));
      timers.current.set(
        id,
        window.setTimeout(() => hide(id), REVEAL_MS),
      );
    }, onError);
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

function RevealButton({ apiKey }: { apiKey: ApiKey }) {
  const revealed = useContext(RevealedContext);
  return revealed.keys[apiKey.id] ? (
    <Button type="link" size="small" onClick={() => revealed.hide(apiKey.id)}>
      隐藏
    </Button>
  ) : (
    <Button type="link" size="small" onClick={() => revealed.reveal(apiKey.id)}>
      显示
    </Button>
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
  const { message } = App.useApp();
  const revealed = useRevealed((error) => message.error(withDetail('显示密钥失败', error)));
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

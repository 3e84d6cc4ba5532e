import { Button, Popconfirm } from 'antd';

/**
 * Destroying a container, after the irreversible-action confirmation. `verb` is what the screen
 * calls it: 销毁 in the user's list, 删除 in the admin list and the MCP dashboard.
 */
export function DestroyContainerButton({
  verb,
  loading,
  onConfirm,
}: {
  verb: '销毁' | '删除';
  loading: boolean;
  onConfirm: () => Promise<unknown> | undefined;
}) {
  return (
    <Popconfirm
      title={`${verb}容器`}
      description={`确定要${verb}该容器吗？此操作不可恢复，容器内的数据将被永久删除。`}
      okText="确定"
      cancelText="取消"
      okButtonProps={{ danger: true }}
      onConfirm={onConfirm}
    >
      <Button type="link" size="small" danger loading={loading}>
        {verb}
      </Button>
    </Popconfirm>
  );
}

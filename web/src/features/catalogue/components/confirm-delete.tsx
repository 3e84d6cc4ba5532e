import { App, Button, Popconfirm } from 'antd';
import { withServerDetail } from '../../../lib/api-client';

export interface ConfirmDeleteProps {
  title: string;
  description: string;
  onDelete: () => Promise<unknown>;
  loading?: boolean;
  testId?: string;
}

/** 删除 behind a confirmation; a refusal (e.g. 409 该框架仍有容器在使用) shows the server's detail. */
export function ConfirmDelete({ title, description, onDelete, loading, testId }: ConfirmDeleteProps) {
  const { message } = App.useApp();
  return (
    <Popconfirm
      title={title}
      description={description}
      okText="确定"
      cancelText="取消"
      okButtonProps={{ danger: true }}
      onConfirm={() =>
        onDelete().then(
          () => {
            message.success('删除成功');
          },
          (error: unknown) => {
            message.error(withServerDetail('删除失败', error));
          },
        )
      }
    >
      <Button type="link" size="small" danger loading={loading} data-testid={testId}>
        删除
      </Button>
    </Popconfirm>
  );
}

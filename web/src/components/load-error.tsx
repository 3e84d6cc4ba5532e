import { Alert } from 'antd';
import { errorDetail } from '../lib/api-client';

/** The banner over a list that could not be loaded: what failed, and the server's reason. */
export function LoadError({ title, error }: { title: string; error: unknown }) {
  if (!error) return null;
  return (
    <Alert
      type="error"
      showIcon
      message={title}
      description={errorDetail(error)}
      style={{ marginBottom: 16 }}
    />
  );
}

import { Button } from 'antd';

/** "发送验证码", then "N秒后重新发送" while the resend countdown runs. */
export function SendCodeButton({
  remaining,
  disabled,
  loading,
  onClick,
  testId,
}: {
  remaining: number;
  disabled?: boolean;
  loading?: boolean;
  onClick: () => void;
  testId?: string;
}) {
  return (
    <Button
      onClick={onClick}
      disabled={disabled || remaining > 0}
      loading={loading}
      data-testid={testId}
      style={{ minWidth: 120 }}
    >
      {remaining > 0 ? `${remaining}秒后重新发送` : '发送验证码'}
    </Button>
  );
}

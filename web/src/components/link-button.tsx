import { Button, type ButtonProps } from 'antd';
import { useNavigate } from 'react-router-dom';

/** A button that moves to an in-app route (a link wrapped around a button would nest two controls). */
export function LinkButton({ to, ...props }: Omit<ButtonProps, 'href' | 'onClick'> & { to: string }) {
  const navigate = useNavigate();
  return <Button {...props} onClick={() => navigate(to)} />;
}

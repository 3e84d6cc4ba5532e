import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ConfigProvider, Form, Input } from 'antd';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { FormDialog } from './form-dialog';

function NameDialog({
  onFinish,
  saving = false,
}: {
  onFinish: (v: { name: string }) => void;
  saving?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ name: string }>();
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        打开
      </button>
      <FormDialog<{ name: string }>
        open={open}
        title="起个名字"
        okText="保存"
        form={form}
        saving={saving}
        onClose={() => setOpen(false)}
        onFinish={onFinish}
      >
        <Form.Item label="名称" name="name" rules={[{ required: true, message: '请输入名称' }]}>
          <Input aria-label="名称" />
        </Form.Item>
      </FormDialog>
    </>
  );
}

// As in the console shell: two-character buttons read '保存', not '保 存'.
const inConsole = (dialog: React.ReactElement) =>
  render(<ConfigProvider button={{ autoInsertSpace: false }}>{dialog}</ConfigProvider>);

describe('FormDialog', () => {
  it('submits the form with OK, after its rules pass', async () => {
    const onFinish = vi.fn();
    inConsole(<NameDialog onFinish={onFinish} />);
    fireEvent.click(screen.getByText('打开'));
    fireEvent.click(await screen.findByRole('button', { name: '保存' }));
    await screen.findByText('请输入名称');
    expect(onFinish).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: 'alpha' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(onFinish).toHaveBeenCalledWith({ name: 'alpha' }));
  });

  it('forgets what was typed once closed with 取消', async () => {
    inConsole(<NameDialog onFinish={vi.fn()} />);
    fireEvent.click(screen.getByText('打开'));
    fireEvent.change(await screen.findByLabelText('名称'), { target: { value: 'draft' } });
    fireEvent.click(screen.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByLabelText('名称')).toBeNull());
    fireEvent.click(screen.getByText('打开'));
    expect(((await screen.findByLabelText('名称')) as HTMLInputElement).value).toBe('');
  });

  it('spins the OK button while saving', async () => {
    inConsole(<NameDialog onFinish={vi.fn()} saving />);
    fireEvent.click(screen.getByText('打开'));
    const ok = await screen.findByRole('button', { name: /保存/ });
    expect(ok.className).toContain('ant-btn-loading');
  });
});

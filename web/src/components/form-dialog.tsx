import { Form, type FormInstance, type FormProps, Modal } from 'antd';
import type { ReactNode } from 'react';

interface FormDialogProps<T> {
  /** Dialogs mounted only while shown leave it out. */
  open?: boolean;
  title: ReactNode;
  okText: string;
  form: FormInstance<T>;
  /** Spins the OK button while the submitted form is being saved. */
  saving: boolean;
  onClose: () => void;
  onFinish: (values: T) => void;
  /** The form's name: prefixes its fields' ids. */
  name?: string;
  initialValues?: FormProps<T>['initialValues'];
  /** false hides the required-field asterisks of a short form. */
  requiredMark?: boolean;
  width?: number;
  children: ReactNode;
}

/**
 * A dialog around one form: OK submits it (spinning while `saving`), 取消 closes; a click beside
 * the dialog never throws away what was typed, and once closed the form starts empty again.
 */
export function FormDialog<T>({
  open = true,
  title,
  okText,
  form,
  saving,
  onClose,
  onFinish,
  name,
  initialValues,
  requiredMark,
  width,
  children,
}: FormDialogProps<T>) {
  return (
    <Modal
      open={open}
      width={width}
      title={title}
      okText={okText}
      cancelText="取消"
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      maskClosable={false}
      destroyOnHidden
    >
      <Form<T>
        form={form}
        name={name}
        layout="vertical"
        requiredMark={requiredMark}
        initialValues={initialValues}
        onFinish={onFinish}
        clearOnDestroy
      >
        {children}
      </Form>
    </Modal>
  );
}

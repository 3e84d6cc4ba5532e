import { Form, Input } from 'antd';
import { ruleFrom } from '../../../lib/form-rules';
import { checkDescription, checkImageName, checkImageTag, DESCRIPTION_MAX, NAME_MAX } from '../types';

/** 镜像名称, 标签 and 描述 of 保存镜像 and 重命名, with the server's own checks. */
export function ImageFields() {
  return (
    <>
      <Form.Item
        label="镜像名称"
        name="name"
        required
        rules={[ruleFrom(checkImageName)]}
        extra="小写字母、数字、点、下划线和短横线，以字母或数字开头"
      >
        <Input aria-label="镜像名称" placeholder="如 my-env" maxLength={NAME_MAX + 8} />
      </Form.Item>
      <Form.Item label="标签" name="tag" rules={[ruleFrom(checkImageTag)]}>
        <Input aria-label="标签" placeholder="latest" maxLength={80} />
      </Form.Item>
      <Form.Item label="描述" name="description" rules={[ruleFrom(checkDescription)]}>
        <Input.TextArea aria-label="描述" rows={3} showCount maxLength={DESCRIPTION_MAX + 20} />
      </Form.Item>
    </>
  );
}

import { Result } from 'antd';
import { LinkButton } from '../../components/link-button';

export function Component() {
  return (
    <Result
      status="404"
      title="页面不存在"
      subTitle="您访问的页面不存在或已被移除。"
      extra={
        <LinkButton to="/" type="primary">
          返回首页
        </LinkButton>
      }
    />
  );
}

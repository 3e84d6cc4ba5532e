import { Result } from 'antd';
import { LinkButton } from './link-button';

export function UnderConstruction({ title }: { title?: string }) {
  return (
    <Result
      status="info"
      title="功能开发中"
      subTitle={title ? `「${title}」即将上线，敬请期待。` : '该功能即将上线，敬请期待。'}
      extra={
        <LinkButton to="/" type="primary">
          返回首页
        </LinkButton>
      }
    />
  );
}

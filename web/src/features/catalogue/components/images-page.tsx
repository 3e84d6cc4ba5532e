import { Card, Tabs } from 'antd';
import { PageHeader } from '../../../components/page-header';
import { AppImagesPanel } from './app-images-panel';
import { FrameworksPanel } from './frameworks-panel';

/** 镜像管理 (/admin/images): frameworks, their versions, and the app market's images. */
export function ImagesPage() {
  return (
    <div>
      <PageHeader title="镜像管理" />
      <Card>
        <Tabs
          items={[
            { key: 'frameworks', label: '框架与版本', children: <FrameworksPanel /> },
            { key: 'images', label: '应用镜像', children: <AppImagesPanel /> },
          ]}
        />
      </Card>
    </div>
  );
}

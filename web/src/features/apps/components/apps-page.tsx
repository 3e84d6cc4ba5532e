import type { AppImage } from '@gpucloud/control-plane/api';
import { Alert, Card, Col, Empty, Flex, Input, Menu, Row, Skeleton, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../../components/page-header';
import { errorDetail } from '../../../lib/api-client';
import { loginPathFor, useSession } from '../../../lib/auth';
import { deployChoice, marketPathFor, storePendingDeploy } from '../../../lib/pending-deploy';
import { useAppImages } from '../api/get-app-images';
import { APP_CATEGORIES, isAppCategory } from '../categories';
import type { AppCategory } from '../types';
import { AppCard } from './app-card';
import { AppDetailDrawer } from './app-detail-drawer';
import { AppsBanner } from './apps-banner';
import { DeployDrawer } from './deploy-drawer';

/** 应用市场 (/apps, public): images by category and search, deployed to the market or directly. */
export function AppsPage() {
  const { token: session } = useSession();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const categoryParam = searchParams.get('category');
  const category: AppCategory = isAppCategory(categoryParam) ? categoryParam : 'all';
  const search = searchParams.get('search') ?? '';
  const [searchInput, setSearchInput] = useState(search);
  const [detailOf, setDetailOf] = useState<AppImage | null>(null);
  const [deploying, setDeploying] = useState<AppImage | null>(null);
  const images = useAppImages(category, search);

  useEffect(() => setSearchInput(search), [search]);

  // Navigations render in a transition: a search typed right after a category click may run
  // before that click's render, so the next query starts from the last one asked for, not from
  // this render's (stale) params, until the address catches up.
  const requested = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    if (requested.current?.toString() === searchParams.toString()) requested.current = null;
  }, [searchParams]);

  const setQuery = (next: { category?: AppCategory; search?: string }) => {
    const current = requested.current ?? searchParams;
    const params = new URLSearchParams(current);
    const shownCategory = params.get('category');
    const nextCategory = next.category ?? (isAppCategory(shownCategory) ? shownCategory : 'all');
    const nextSearch = (next.search ?? params.get('search') ?? '').trim();
    if (nextCategory === 'all') params.delete('category');
    else params.set('category', nextCategory);
    if (nextSearch) params.set('search', nextSearch);
    else params.delete('search');
    if (params.toString() === current.toString()) return;
    requested.current = params;
    setSearchParams(params, { replace: true });
  };

  // Signed out, the choice waits in localStorage while the visitor signs in; the market picks it up.
  const deployNow = (image: AppImage) => {
    const choice = deployChoice(image);
    if (session) {
      navigate(marketPathFor(choice));
      return;
    }
    storePendingDeploy(choice);
    navigate(loginPathFor('/market'));
  };

  const quickDeploy = (image: AppImage) => {
    if (!session) {
      navigate(loginPathFor('/apps'));
      return;
    }
    setDetailOf(null);
    setDeploying(image);
  };

  return (
    <div>
      <PageHeader title="应用市场" />
      <AppsBanner />
      <Flex gap={24} align="flex-start" wrap>
        <Card size="small" style={{ width: 200, flex: 'none' }} styles={{ body: { padding: 4 } }}>
          <nav aria-label="应用分类">
            <Menu
              mode="inline"
              selectedKeys={[category]}
              items={APP_CATEGORIES.map((item) => ({ key: item.value, label: item.label }))}
              onClick={({ key }) => setQuery({ category: key as AppCategory })}
              style={{ borderInlineEnd: 'none', borderRadius: token.borderRadiusLG }}
            />
          </nav>
        </Card>
        <Flex vertical gap={16} style={{ flex: 1, minWidth: 280 }}>
          <Input.Search
            aria-label="搜索应用"
            placeholder="搜索应用名称或描述"
            allowClear
            enterButton="搜索"
            style={{ maxWidth: 480 }}
            value={searchInput}
            onChange={(event) => {
              setSearchInput(event.target.value);
              if (event.target.value === '') setQuery({ search: '' });
            }}
            onSearch={(value) => setQuery({ search: value })}
          />
          {images.isError ? (
            <Alert type="error" showIcon message="获取应用列表失败" description={errorDetail(images.error)} />
          ) : null}
          {images.isPending ? (
            <Skeleton active paragraph={{ rows: 6 }} />
          ) : (images.data ?? []).length === 0 && !images.isError ? (
            <Empty description={search ? `没有找到与「${search}」相关的应用` : '该分类下暂无应用'} />
          ) : (
            <Row gutter={[16, 16]} data-testid="app-grid">
              {(images.data ?? []).map((image) => (
                <Col key={image.id} xs={24} sm={12} xl={8} xxl={6}>
                  <AppCard image={image} onDeploy={deployNow} onDetails={setDetailOf} />
                </Col>
              ))}
            </Row>
          )}
        </Flex>
      </Flex>
      <AppDetailDrawer
        image={detailOf}
        onClose={() => setDetailOf(null)}
        onDeploy={deployNow}
        onQuickDeploy={quickDeploy}
      />
      {deploying ? <DeployDrawer image={deploying} onClose={() => setDeploying(null)} /> : null}
    </div>
  );
}

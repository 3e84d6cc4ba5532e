import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { Outlet } from 'react-router-dom';
import { appTheme } from '../theme';
import { SiteFooter } from './site-footer';

dayjs.locale('zh-cn');

/**
 * Every screen built with antd (sign-in, markets, user centre, admin) sits under this lazily
 * loaded shell, so antd is downloaded the first time such a screen opens and never for the
 * public pages. autoInsertSpace is off so two-character buttons read '启动', not '启 动' (the
 * spec's wording, and what tests and screen readers look for).
 */
export function Component() {
  return (
    <ConfigProvider locale={zhCN} theme={appTheme} button={{ autoInsertSpace: false }}>
      <AntApp component={false}>
        <main id="main" className="console-main" tabIndex={-1}>
          <Outlet />
        </main>
        <SiteFooter compact />
      </AntApp>
    </ConfigProvider>
  );
}

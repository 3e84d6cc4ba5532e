import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import type { ReactNode } from 'react';
import { appTheme } from './theme';

dayjs.locale('zh-cn');

/**
 * antd's providers, for every subtree built with antd: the console shell and the register form
 * the light sign-in screen loads on demand. autoInsertSpace is off so two-character buttons read
 * '启动', not '启 动' (the spec's wording, and what tests and screen readers look for).
 */
export function AntdProviders({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={appTheme} button={{ autoInsertSpace: false }}>
      <AntApp component={false}>{children}</AntApp>
    </ConfigProvider>
  );
}

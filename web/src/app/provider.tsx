import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { type ReactNode, useState } from 'react';
import { createQueryClient } from '../lib/query-client';

dayjs.locale('zh-cn');

export const appTheme = {
  token: { colorPrimary: '#1677ff', borderRadius: 6 },
};

/**
 * autoInsertSpace is off so two-character buttons read '启动', not '启 动' (the spec's wording, and
 * what tests and screen readers look for).
 */
export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <ConfigProvider locale={zhCN} theme={appTheme} button={{ autoInsertSpace: false }}>
      <AntApp>
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}

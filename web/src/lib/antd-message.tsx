import { ConfigProvider, message } from 'antd';
import { appTheme } from '../app/theme';

// antd's global message, drawn with the console's theme (the same look as App.useApp()'s). It
// lives outside any page, so a toast outlasts the page that showed it ('登录成功' stays while the
// browser moves on to the market).
ConfigProvider.config({
  holderRender: (children) => <ConfigProvider theme={appTheme}>{children}</ConfigProvider>,
});

export { message };

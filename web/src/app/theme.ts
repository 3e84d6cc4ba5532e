/**
 * The console's one visual language. antd reads these through ConfigProvider; the light public
 * pages (which load no antd, to keep the home page small) use the same values as CSS variables
 * in styles.css — change both together.
 */
export const BRAND_PRIMARY = '#1677ff';
export const BRAND_RADIUS = 6;
export const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', " +
  "'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'WenQuanYi Micro Hei', " +
  "sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'";

/**
 * Whoever asks their system for less motion gets none: antd's dialogs, drawers and menus then
 * open and close at once instead of zooming and sliding.
 */
const PREFERS_REDUCED_MOTION =
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

export const appTheme = {
  token: {
    colorPrimary: BRAND_PRIMARY,
    borderRadius: BRAND_RADIUS,
    fontFamily: FONT_FAMILY,
    motion: !PREFERS_REDUCED_MOTION,
  },
};

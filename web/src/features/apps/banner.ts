/** The app market's banner stays closed once dismissed (spec: remembered persistently). */
export const BANNER_DISMISSED_KEY = 'appsBannerDismissed';

export function isBannerDismissed(): boolean {
  try {
    return window.localStorage.getItem(BANNER_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

export function dismissBanner(): void {
  try {
    window.localStorage.setItem(BANNER_DISMISSED_KEY, '1');
  } catch {
    // Storage disabled: the banner comes back on the next visit, nothing worse.
  }
}

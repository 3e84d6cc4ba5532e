import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom lacks matchMedia, which antd's responsive helpers (Grid, Layout.Sider breakpoints) need.
if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  });
}

// jsdom does not implement pseudo-element styles; antd asks for them when measuring scrollbars.
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => computedStyle(element);

// Role queries check visibility through getComputedStyle on every ancestor, which is very slow on
// antd's CSS-in-JS pages; tests look for elements that are on screen anyway. The first render of a
// lazily loaded route compiles its module, hence the longer wait: 15 s was once not enough for the
// market's while the Docker suites ran beside (npm test's other lane); tests time out at 60 s.
configure({ defaultHidden: true, asyncUtilTimeout: 30_000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

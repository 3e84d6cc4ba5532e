import { QueryClient } from '@tanstack/react-query';
import { render, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { AppProvider } from '../app/provider';
// The console shell (antd's providers) is a lazy route in the app. Loading it here, with the test
// file, keeps its one-off module cost out of the first test's wait for the screen to appear.
import '../app/layouts/console-shell';

export function renderRoutes(routes: RouteObject[], initialPath: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: 0 }, mutations: { retry: false } },
  });
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} future={{ v7_startTransition: true }} />
    </AppProvider>,
  );
  return { router, queryClient, ...view };
}

export interface RecordedRequest {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

type Handler = (request: RecordedRequest) => { status?: number; body?: unknown };

/** Replaces window.fetch with routes keyed "METHOD /path"; unknown routes answer 404. */
export function fakeServer(handlers: Record<string, Handler>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://console.test');
    const request: RecordedRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      search: url.searchParams,
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    requests.push(request);
    const handler = handlers[`${request.method} ${request.path}`];
    const answer = handler
      ? handler(request)
      : { status: 404, body: { detail: '不存在', code: 'NOT_FOUND' } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requests, fetchMock };
}

/** The antd dialog on top (the last one opened). */
export function dialog(): HTMLElement {
  const found = Array.from(document.querySelectorAll<HTMLElement>('.ant-modal-content')).at(-1);
  if (!found) throw new Error('no dialog');
  return found;
}

/** The text input of an antd Select labelled `label` (the label is on its wrapper too). */
export function selectInput(scope: HTMLElement, label: string): HTMLElement {
  const input = within(scope)
    .getAllByLabelText(label)
    .find((el) => el.tagName === 'INPUT');
  if (!input) throw new Error(`no select input labelled ${label}`);
  return input;
}

/**
 * The button whose text is `name`. Role queries compute styles for every node, which is very slow on
 * antd pages in jsdom; buttons are found by their text instead.
 */
export function findButtons(scope: ParentNode, name: string): HTMLButtonElement[] {
  return Array.from(scope.querySelectorAll('button')).filter((button) => button.textContent?.trim() === name);
}

export function getButton(scope: ParentNode, name: string): HTMLButtonElement {
  const buttons = findButtons(scope, name);
  const last = buttons.at(-1);
  if (!last) throw new Error(`no button named ${name}`);
  return last;
}

export async function waitForButton(scope: ParentNode, name: string): Promise<HTMLButtonElement> {
  let found: HTMLButtonElement | undefined;
  await waitFor(() => {
    found = getButton(scope, name);
  });
  if (!found) throw new Error(`no button named ${name}`);
  return found;
}

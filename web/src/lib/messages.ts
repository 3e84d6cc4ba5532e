/**
 * Toasts for the screens that load no antd up front (the sign-in screen): antd's message is
 * loaded the first time one is shown, or earlier through preloadMessages() once the user starts
 * using the form, so the toast appears at once when it is needed.
 */
type Kind = 'success' | 'error' | 'info' | 'warning';

let loading: Promise<typeof import('./antd-message')> | undefined;

function load() {
  loading ??= import('./antd-message').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Starts loading antd's message (for instance on the form's first focus); idempotent. */
export function preloadMessages(): void {
  // A failed preload is retried, and reported, by the showMessage() that needs the module.
  void load().catch(() => {});
}

export function showMessage(kind: Kind, text: string): void {
  void load().then(
    ({ message }) => {
      void message[kind](text);
    },
    () => {
      // Without the toast module (offline), at least the text reaches the user.
      window.alert(text);
    },
  );
}

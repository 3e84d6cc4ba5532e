import { useEffect, useRef, useState } from 'react';
import { getToken } from '../../../lib/auth';
import { logSocketUrl } from '../connection';

export type LogStreamState = 'idle' | 'connecting' | 'open' | 'closed' | 'error';

/** Keep the tail only: a chatty container must not grow the page without bound. */
export const MAX_LOG_CHARS = 1_000_000;

/**
 * The text with a frame's text appended. Frames are batches of the log: a line may start in one
 * frame and end in the next, so frames are joined as they are, never with a line break added.
 * Past MAX_LOG_CHARS the oldest lines go (cut at a line start where there is one).
 */
export function appendLog(current: string, frame: string): string {
  const next = current + frame;
  if (next.length <= MAX_LOG_CHARS) return next;
  const cut = next.length - MAX_LOG_CHARS;
  const lineStart = next.indexOf('\n', cut);
  return lineStart >= 0 && lineStart < next.length - 1 ? next.slice(lineStart + 1) : next.slice(cut);
}

/** Streams a container's logs over WebSocket while containerId is set; closes the socket otherwise. */
export function useLogStream(containerId: string | null, onError: () => void) {
  const [text, setText] = useState('');
  const [state, setState] = useState<LogStreamState>('idle');
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  useEffect(() => {
    setText('');
    if (!containerId) {
      setState('idle');
      return;
    }
    const token = getToken();
    if (!token) {
      setState('error');
      onErrorRef.current();
      return;
    }
    setState('connecting');
    let disposed = false;
    const socket = new WebSocket(logSocketUrl(window.location, containerId, token));
    const append = (frame: string) => {
      if (!disposed) setText((current) => appendLog(current, frame));
    };
    socket.onopen = () => {
      if (!disposed) setState('open');
    };
    socket.onmessage = (event: MessageEvent<unknown>) => {
      if (typeof event.data === 'string') append(event.data);
      else if (event.data instanceof Blob) void event.data.text().then(append);
    };
    socket.onerror = () => {
      if (disposed) return;
      setState('error');
      onErrorRef.current();
    };
    socket.onclose = () => {
      if (!disposed) setState((current) => (current === 'error' ? current : 'closed'));
    };
    return () => {
      disposed = true;
      socket.close();
    };
  }, [containerId]);

  return { text, state };
}

import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * Calls `onNavigate` when the address (path or query) changes, never on mount: an effect keyed on
 * the location alone also runs once after the first render, and when that run is late (a route that
 * rendered in a transition flushes its effects later) it closed a menu the user had just opened.
 */
export function useOnNavigate(onNavigate: () => void): void {
  const { pathname, search } = useLocation();
  const address = `${pathname}${search}`;
  const seen = useRef(address);
  const callback = useRef(onNavigate);
  callback.current = onNavigate;
  useEffect(() => {
    if (seen.current === address) return;
    seen.current = address;
    callback.current();
  }, [address]);
}

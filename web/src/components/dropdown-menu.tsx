import {
  Fragment,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { Link } from 'react-router-dom';
import { useOnNavigate } from '../lib/use-on-navigate';
import { Icon } from './icons';
import './dropdown-menu.css';

export interface DropdownItem {
  key: string;
  label: ReactNode;
  description?: string;
  /** An in-app link; items without one are actions (onSelect). */
  to?: string;
  onSelect?: () => void;
  danger?: boolean;
  separatorBefore?: boolean;
}

export interface DropdownMenuProps {
  label: ReactNode;
  items: DropdownItem[];
  /** Accessible name of the opened menu. */
  menuLabel: string;
  align?: 'start' | 'end';
  /** Opens while a mouse hovers it, as desktop site menus do; clicks and keys work regardless. */
  openOnHover?: boolean;
  active?: boolean;
  buttonClassName?: string;
  testId?: string;
}

const HOVER_CLOSE_DELAY_MS = 150;

/**
 * A menu button (WAI-ARIA menu-button pattern) without antd: Enter, Space or ↓ opens it on the first
 * item, ↑ on the last; ↑/↓/Home/End move, Escape closes and gives focus back, Tab leaves.
 */
export function DropdownMenu({
  label,
  items,
  menuLabel,
  align = 'start',
  openOnHover = false,
  active = false,
  buttonClassName,
  testId,
}: DropdownMenuProps) {
  const [open, setOpen] = useState(false);
  const [focusIndex, setFocusIndex] = useState(-1);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<Array<HTMLAnchorElement | HTMLButtonElement | null>>([]);
  const closeTimer = useRef<number | undefined>(undefined);
  const hoverOpenedAt = useRef(0);
  const menuId = useId();

  const close = useCallback(() => {
    window.clearTimeout(closeTimer.current);
    setOpen(false);
    setFocusIndex(-1);
  }, []);

  const openAt = (index: number) => {
    window.clearTimeout(closeTimer.current);
    setOpen(true);
    setFocusIndex(index);
  };

  // A navigation (from this menu or elsewhere) closes it.
  useOnNavigate(close);

  useEffect(() => {
    if (open && focusIndex >= 0) itemRefs.current[focusIndex]?.focus();
  }, [open, focusIndex]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: globalThis.PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) close();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, close]);

  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openAt(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(items.length - 1);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      close();
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = items.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: focusIndex >= last ? 0 : focusIndex + 1,
      ArrowUp: focusIndex <= 0 ? last : focusIndex - 1,
      Home: 0,
      End: last,
    };
    const next = moves[event.key];
    if (next !== undefined) {
      event.preventDefault();
      setFocusIndex(next);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
      buttonRef.current?.focus();
    } else if (event.key === 'Tab') {
      close();
    }
  };

  const onButtonClick = () => {
    // The click that follows a hover-open must not close the menu the pointer just opened.
    if (open && Date.now() - hoverOpenedAt.current < 400) return;
    if (open) close();
    else openAt(-1);
  };

  const onPointerEnter = (event: PointerEvent) => {
    if (!openOnHover || event.pointerType !== 'mouse') return;
    window.clearTimeout(closeTimer.current);
    if (!open) {
      hoverOpenedAt.current = Date.now();
      openAt(-1);
    }
  };

  const onPointerLeave = (event: PointerEvent) => {
    if (!openOnHover || event.pointerType !== 'mouse') return;
    // Keyboard users keep the menu they are working in.
    if (rootRef.current?.contains(document.activeElement) && focusIndex >= 0) return;
    window.clearTimeout(closeTimer.current);
    closeTimer.current = window.setTimeout(close, HOVER_CLOSE_DELAY_MS);
  };

  return (
    <div className="dd" ref={rootRef} onPointerEnter={onPointerEnter} onPointerLeave={onPointerLeave}>
      <button
        ref={buttonRef}
        type="button"
        className={`dd-button${active ? ' dd-button-active' : ''}${buttonClassName ? ` ${buttonClassName}` : ''}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        data-testid={testId}
        onClick={onButtonClick}
        onKeyDown={onButtonKeyDown}
      >
        {label}
        <Icon name="chevron-down" size={14} className="dd-caret" />
      </button>
      {open ? (
        <div
          role="menu"
          id={menuId}
          aria-label={menuLabel}
          className={`dd-panel dd-${align}`}
          onKeyDown={onMenuKeyDown}
        >
          {items.map((item, index) => {
            const className = `dd-item${item.danger ? ' dd-item-danger' : ''}`;
            const setRef = (node: HTMLAnchorElement | HTMLButtonElement | null) => {
              itemRefs.current[index] = node;
            };
            const content = (
              <>
                <span className="dd-item-label">{item.label}</span>
                {item.description ? <span className="dd-item-desc">{item.description}</span> : null}
              </>
            );
            return (
              <Fragment key={item.key}>
                {item.separatorBefore ? <hr className="dd-separator" /> : null}
                {item.to ? (
                  <Link
                    ref={setRef}
                    role="menuitem"
                    tabIndex={-1}
                    to={item.to}
                    className={className}
                    onClick={close}
                  >
                    {content}
                  </Link>
                ) : (
                  <button
                    ref={setRef}
                    type="button"
                    role="menuitem"
                    tabIndex={-1}
                    className={className}
                    onClick={() => {
                      close();
                      buttonRef.current?.focus();
                      item.onSelect?.();
                    }}
                  >
                    {content}
                  </button>
                )}
              </Fragment>
            );
          })}
        </div>
      ) : null}
    </div>
  );
}

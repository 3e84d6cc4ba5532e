import { type KeyboardEvent, type MouseEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Icon } from '../../components/icons';
import { loginPathFor, storeRedirect, useSession } from '../../lib/auth';
import { useOnNavigate } from '../../lib/use-on-navigate';
import { cardNeedsLogin, DOCS_LINK, PRODUCT_CARDS, type ProductCard } from '../navigation';

const FOCUSABLE = 'a[href], button:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The side menu: all products as cards, in a modal panel (Escape closes, focus stays inside). */
export function ProductDrawer() {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const panelId = useId();
  const { token } = useSession();
  const navigate = useNavigate();

  // A navigation closes the panel.
  useOnNavigate(() => setOpen(false));

  useEffect(() => {
    if (!open) return;
    const opener = buttonRef.current;
    panelRef.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      opener?.focus();
    };
  }, [open]);

  const onPanelKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      return;
    }
    if (event.key !== 'Tab' || !panelRef.current) return;
    const focusable = Array.from(panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable.at(-1);
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  const onCardClick = (event: MouseEvent<HTMLAnchorElement>, card: ProductCard) => {
    if (!card.to) return;
    if (!token && cardNeedsLogin(card.to)) {
      // Signed out: remember where the visitor was going and sign in first.
      event.preventDefault();
      storeRedirect(card.to);
      setOpen(false);
      navigate(loginPathFor(card.to));
      return;
    }
    setOpen(false);
  };

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="site-icon-button"
        aria-label="全部产品"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        data-testid="product-drawer-button"
        onClick={() => setOpen(!open)}
      >
        <Icon name="grid" />
      </button>
      {open ? (
        <div className="drawer-root">
          <div className="drawer-mask" aria-hidden="true" onClick={() => setOpen(false)} />
          <div
            ref={panelRef}
            id={panelId}
            className="drawer-panel"
            role="dialog"
            aria-modal="true"
            aria-labelledby={titleId}
            onKeyDown={onPanelKeyDown}
          >
            <div className="drawer-header">
              <h2 id={titleId}>全部产品</h2>
              <button
                type="button"
                className="site-icon-button"
                aria-label="关闭"
                onClick={() => setOpen(false)}
              >
                <Icon name="close" />
              </button>
            </div>
            <ul className="product-cards">
              {PRODUCT_CARDS.map((card) => (
                <li key={card.key}>
                  {card.to ? (
                    <Link
                      to={card.to}
                      className="product-card"
                      data-testid={`product-card-${card.key}`}
                      onClick={(event) => onCardClick(event, card)}
                    >
                      <ProductCardBody card={card} />
                    </Link>
                  ) : (
                    <div
                      className="product-card product-card-disabled"
                      aria-disabled="true"
                      data-testid={`product-card-${card.key}`}
                    >
                      <ProductCardBody card={card} />
                    </div>
                  )}
                </li>
              ))}
            </ul>
            <div className="drawer-links">
              <Link to={DOCS_LINK.to}>
                <Icon name="book" size={16} /> 文档中心
              </Link>
              <Link to="/contact">
                <Icon name="headset" size={16} /> 联系我们
              </Link>
            </div>
          </div>
        </div>
      ) : null}
    </>
  );
}

function ProductCardBody({ card }: { card: ProductCard }) {
  return (
    <>
      <span className="product-card-icon">
        <Icon name={card.icon} />
      </span>
      <span className="product-card-text">
        <span className="product-card-title">
          {card.title}
          {card.inDevelopment ? <span className="gc-tag gc-tag-warning">开发中</span> : null}
        </span>
        <span className="product-card-desc">{card.description}</span>
      </span>
    </>
  );
}

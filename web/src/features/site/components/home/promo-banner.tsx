import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '../../../../components/icons';
import { useSession } from '../../../../lib/auth';
import { formatCredit, useTrialCredit } from '../../../auth/api/get-site';

export const PROMO_DISMISSED_KEY = 'promoBannerDismissed';

function dismissedThisSession(): boolean {
  try {
    return window.sessionStorage.getItem(PROMO_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * The new-user promotion: registering gives a trial credit. Shown to signed-out visitors until
 * closed, and only once the server has said an amount above 0 (GET /api/site).
 */
export function PromoBanner() {
  const { token } = useSession();
  const [dismissed, setDismissed] = useState(dismissedThisSession);
  const credit = useTrialCredit();
  if (token || dismissed || credit === null) return null;

  const dismiss = () => {
    try {
      window.sessionStorage.setItem(PROMO_DISMISSED_KEY, '1');
    } catch {
      // Storage may be disabled; the banner still closes for this page view.
    }
    setDismissed(true);
  };

  return (
    <aside className="promo-banner" aria-label="新用户福利" data-testid="promo-banner">
      <div className="pub-container">
        <Icon name="gift" size={18} />
        <p>
          <span>
            新用户注册即送 <strong>{formatCredit(credit)}</strong>体验金，可直接用于租用 GPU 实例
          </span>
          <Link to="/register">立即注册领取 →</Link>
        </p>
        <button type="button" className="site-icon-button" aria-label="关闭新用户福利提示" onClick={dismiss}>
          <Icon name="close" size={16} />
        </button>
      </div>
    </aside>
  );
}

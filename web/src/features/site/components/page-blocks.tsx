import { type ReactNode, useId } from 'react';
import { Link } from 'react-router-dom';
import { Icon, type IconName } from '../../../components/icons';
import '../site.css';

export function PageHero({
  eyebrow,
  title,
  children,
  actions,
}: {
  eyebrow?: string;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className="pub-hero">
      <div className="pub-container">
        {eyebrow ? <span className="pub-hero-eyebrow">{eyebrow}</span> : null}
        <h1>{title}</h1>
        {children ? <p>{children}</p> : null}
        {actions ? <div className="pub-hero-actions">{actions}</div> : null}
      </div>
    </section>
  );
}

export function Section({
  id,
  title,
  subtitle,
  alt = false,
  children,
}: {
  id?: string;
  title: string;
  subtitle?: string;
  alt?: boolean;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section id={id} className={`pub-section${alt ? ' pub-section-alt' : ''}`} aria-labelledby={headingId}>
      <div className="pub-container">
        <div className="pub-section-head">
          <h2 id={headingId}>{title}</h2>
          {subtitle ? <p>{subtitle}</p> : null}
        </div>
        {children}
      </div>
    </section>
  );
}

export interface FeatureItem {
  icon: IconName;
  title: string;
  text: string;
  points?: string[];
}

export function FeatureGrid({ items, wide = false }: { items: FeatureItem[]; wide?: boolean }) {
  return (
    <ul className={`pub-grid${wide ? ' pub-grid-3' : ''}`}>
      {items.map((item) => (
        <li key={item.title}>
          <article className="pub-card">
            <span className="pub-card-icon">
              <Icon name={item.icon} size={22} />
            </span>
            <h3>{item.title}</h3>
            <p>{item.text}</p>
            {item.points ? (
              <ul>
                {item.points.map((point) => (
                  <li key={point}>{point}</li>
                ))}
              </ul>
            ) : null}
          </article>
        </li>
      ))}
    </ul>
  );
}

export function Steps({ steps }: { steps: { title: string; text: string }[] }) {
  return (
    <ol className="pub-steps">
      {steps.map((step) => (
        <li key={step.title}>
          <h3>{step.title}</h3>
          <p>{step.text}</p>
        </li>
      ))}
    </ol>
  );
}

export function CtaBand({
  title,
  text,
  to,
  label,
}: {
  title: string;
  text: string;
  to: string;
  label: string;
}) {
  return (
    <section className="pub-cta" aria-label={title}>
      <div className="pub-container">
        <h2>{title}</h2>
        <p>{text}</p>
        <Link to={to} className="gc-btn gc-btn-lg">
          {label}
        </Link>
      </div>
    </section>
  );
}

export function DevelopmentNote({ children }: { children: ReactNode }) {
  return (
    <p className="pub-note">
      <span className="gc-tag gc-tag-warning">开发中</span>
      <span>{children}</span>
    </p>
  );
}

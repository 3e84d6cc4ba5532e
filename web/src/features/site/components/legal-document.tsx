import { Fragment, type ReactNode } from 'react';
import { useTrialCredit } from '../../auth/api/get-site';
import type { LegalBlock, LegalDocumentContent } from '../content/legal';
import './legal-document.css';

/** Renders `**emphasised**` spans: Chinese contract law asks liability clauses to stand out. */
export function emphasised(text: string): ReactNode {
  const parts = text.split('**');
  if (parts.length === 1) return text;
  return parts.map((part, index) =>
    index % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string never reorder.
      <strong key={index}>{part}</strong>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: as above.
      <Fragment key={index}>{part}</Fragment>
    ),
  );
}

/** A clause quoting the trial credit: the server's amount, or the clause's wording without one. */
function TrialCreditBlock({ clause }: { clause: (yuan: number | null) => string }) {
  const credit = useTrialCredit();
  return <p>{emphasised(clause(credit))}</p>;
}

function Block({ block }: { block: LegalBlock }) {
  if (typeof block === 'string') return <p>{emphasised(block)}</p>;
  if ('withTrialCredit' in block) return <TrialCreditBlock clause={block.withTrialCredit} />;
  const items = 'list' in block ? block.list : block.ordered;
  const children = items.map((item) => <li key={item}>{emphasised(item)}</li>);
  return 'list' in block ? <ul>{children}</ul> : <ol>{children}</ol>;
}

/** A block's React key: its text (a clause quoting the trial credit: its wording without a number). */
function blockKey(block: LegalBlock): string {
  if (typeof block === 'string') return block;
  if ('withTrialCredit' in block) return block.withTrialCredit(null);
  return JSON.stringify(block);
}

export function LegalDocument({ content }: { content: LegalDocumentContent }) {
  return (
    <div className="legal pub-container">
      <nav className="legal-toc" aria-label="目录">
        <h2>目录</h2>
        <ol>
          {content.sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      <article className="legal-body">
        <header>
          <h1>{content.title}</h1>
          <p className="legal-dates">
            更新日期：{content.updated}　生效日期：{content.effective}
          </p>
        </header>
        {content.intro.map((paragraph) => (
          <p key={paragraph}>{emphasised(paragraph)}</p>
        ))}
        {content.sections.map((section, index) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`}>
            <h2 id={`${section.id}-title`}>
              {index + 1}. {section.title}
            </h2>
            {section.blocks.map((block) => (
              <Block key={blockKey(block)} block={block} />
            ))}
          </section>
        ))}
      </article>
    </div>
  );
}

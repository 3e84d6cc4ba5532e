/**
 * A block of a legal page: a paragraph, a list of items, or a paragraph that quotes the new-user
 * trial credit, which the page passes in when it renders (the server's amount in yuan; null while
 * it is not known or when new users get none). `**text**` marks a clause to emphasise.
 */
export type LegalBlock =
  | string
  | { list: string[] }
  | { ordered: string[] }
  | { withTrialCredit: (yuan: number | null) => string };

export interface LegalSection {
  id: string;
  title: string;
  blocks: LegalBlock[];
}

export interface LegalDocumentContent {
  title: string;
  updated: string;
  effective: string;
  intro: string[];
  sections: LegalSection[];
}

/** The date both legal texts were last revised; bump it with any change to their substance. */
export const LEGAL_REVISION_DATE = '2026 年 11 月 21 日';

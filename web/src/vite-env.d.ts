/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The operator's ICP filing number shown in the footer, e.g. 京ICP备12345678号-1. */
  readonly VITE_ICP_FILING?: string;
  /** The operator's name in the copyright line and the legal pages. */
  readonly VITE_SITE_OPERATOR?: string;
  readonly VITE_SUPPORT_PHONE?: string;
  readonly VITE_SUPPORT_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

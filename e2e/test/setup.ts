import { afterEach, beforeEach } from 'vitest';
import { describeTestPages, startTest } from './page-watch.js';

// A failed browser test carries what its open pages showed (see page-watch.ts) in its message,
// which reaches the JSON report and the summary at the end of `npm test`.
beforeEach(() => startTest());
afterEach(async (context) => {
  const result = context.task.result;
  const error = result?.state === 'fail' ? result.errors?.[0] : undefined;
  if (!error) return;
  const pages = await describeTestPages();
  if (!pages) return;
  error.message = `${error.message}\n${pages}`;
  // The JSON report (and so the summary) takes the stack.
  if (error.stack) error.stack = `${error.stack}\n${pages}`;
});

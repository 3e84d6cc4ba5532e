// A vitest reporter for `npm test`: writes every failed test's error to test-failures.json in the
// package, with the assertion's diff (the JSON reporter keeps only the stack, so a failed
// toMatchObject said "30 matching properties omitted" and not which one differed).
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** The frames of the project's own files: where in the test or the code it failed. */
function ownFrames(stack) {
  return String(stack ?? '')
    .split('\n')
    .filter((l) => /^\s+at .*[/\\][^\s]*:\d+:\d+/.test(l) && !/node_modules|node:internal/.test(l))
    .slice(0, 4)
    .map((l) => l.trim());
}

function describe(error) {
  return {
    message: String(error?.message ?? error),
    diff: typeof error?.diff === 'string' ? error.diff : undefined,
    frames: ownFrames(error?.stack ?? error?.stackStr),
  };
}

export default class FailureReporter {
  onInit(ctx) {
    this.root = ctx.config.root;
  }

  onFinished(files = [], errors = []) {
    const failures = [];
    const visit = (task, names, file) => {
      const here = task.type === 'suite' || task.type === 'test' ? [...names, task.name] : names;
      if (task.type === 'test' && task.result?.state === 'fail') {
        failures.push({ file, name: here.join(' > '), errors: (task.result.errors ?? []).map(describe) });
      }
      for (const child of task.tasks ?? []) visit(child, here, file);
    };
    for (const file of files) {
      const rel = path.relative(this.root, file.filepath);
      if (file.result?.state === 'fail' && (file.result.errors ?? []).length > 0) {
        failures.push({ file: rel, name: '', errors: file.result.errors.map(describe) });
      }
      for (const task of file.tasks ?? []) visit(task, [], rel);
    }
    for (const error of errors)
      failures.push({ file: '', name: 'unhandled error', errors: [describe(error)] });
    writeFileSync(path.join(this.root, 'test-failures.json'), JSON.stringify(failures, null, 2));
  }
}

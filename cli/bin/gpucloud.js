#!/usr/bin/env node
// The command's entry: the one-file bundle `npm run build` makes (dist/gpucloud.js). This file is
// committed so that npm links the `gpucloud` bin on install, before anything is built.
const bundle = new URL('../dist/gpucloud.js', import.meta.url);
import(bundle.href).catch((err) => {
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/gpucloud.js')) {
    console.error('gpucloud is not built yet: npm run build -w @gpucloud/cli');
    process.exit(1);
  }
  throw err;
});

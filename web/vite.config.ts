import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './build/precompress';
import { prerender } from './build/prerender';

const VENDOR_PACKAGES =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@remix-run[\\/]router|@tanstack[\\/]query-core|@tanstack[\\/]react-query)[\\/]/;

export default defineConfig({
  // prerender: the public pages' HTML drawn at build time (dist/pages/), hydrated by main.tsx;
  // precompress: dist/**/*.br and *.gz beside each text file, served as they are.
  plugins: [react(), prerender(['/', '/login']), precompress()],
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true, ws: true },
    },
  },
  build: {
    chunkSizeWarningLimit: 1500,
    // dist/.vite/manifest.json: the e2e budget test walks the home page's import graph from it.
    manifest: true,
    rollupOptions: {
      output: {
        // React, the router and TanStack Query change rarely: one long-cached chunk every page
        // shares. antd is left to Rollup's per-route splitting so public pages never load it.
        manualChunks(id) {
          if (VENDOR_PACKAGES.test(id)) return 'vendor';
          return undefined;
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    testTimeout: 60_000,
    // What a test stubs with vi.stubGlobal (fakeServer's fetch, above all) ends with the test.
    unstubGlobals: true,
  },
});

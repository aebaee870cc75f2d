import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { SOURCE_HASH_FILE, viewSourceHash } from './source-hash.js';

const root = fileURLToPath(new URL('.', import.meta.url));

// The viewer's page: Preact + Chart.js, bundled into web/view/built/ with fixed file names (the server
// serves exactly the files found there). Built by `npm run build:view`.
export default defineConfig({
  root,
  base: '/',
  logLevel: 'warn',
  plugins: [
    {
      name: 'cove-source-hash',
      closeBundle() {
        writeFileSync(SOURCE_HASH_FILE, `${viewSourceHash()}\n`);
      },
    },
  ],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: `${root}built`,
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        entryFileNames: 'assets/app.js',
        chunkFileNames: 'assets/[name].js',
        assetFileNames: 'assets/[name][extname]',
      },
    },
  },
});

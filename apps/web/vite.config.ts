import { defineConfig } from 'vite';

// The API serves the build under /app/ (apps/api/src/web-app), so every asset URL starts there.
export default defineConfig({
  base: '/app/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // One report line per chunk with its gzip size: the initial-load budget (docs/web.md) is read off it.
    reportCompressedSize: true,
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // `npm run dev -w @portal/web`: the page from Vite, every API call to the API of `npm start`.
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});

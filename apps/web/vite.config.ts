/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    port: 5173,
    proxy: {
      '/auth': 'http://localhost:3000',
      '/api': 'http://localhost:3000',
      '/dev': 'http://localhost:3000',
    },
  },
  build: { outDir: 'dist', sourcemap: true },
  // Used by the root vitest config's `web` project, which extends this file.
  test: { setupFiles: ['./src/testing/setup.ts'] },
});

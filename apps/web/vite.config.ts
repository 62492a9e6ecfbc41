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
    // Only the server's own prefixes: a bare '/auth' or '/api' would also capture the /auth and
    // /api-reference pages.
    proxy: {
      '/auth/v1/': 'http://localhost:3000',
      '/api/': 'http://localhost:3000',
      '/dev/': 'http://localhost:3000',
    },
  },
  build: {
    outDir: 'dist',
    // No source maps in what the server serves (ASVS 12.5.1); `vite build --sourcemap` makes them
    // for debugging locally, and the server refuses to serve them even then.
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            { name: 'auth-client', test: /node_modules[\\/]@supabase[\\/]/ },
          ],
        },
      },
    },
  },
  // Used by the root vitest config's `web` project, which extends this file.
  test: { setupFiles: ['./src/testing/setup.ts'] },
});

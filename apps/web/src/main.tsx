import type { GoTrueClient } from '@supabase/auth-js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/index.js';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// Created once, outside React, so StrictMode's double rendering cannot start a second client; and
// loaded only when the page needs it (AuthProvider), so public pages open without it.
let authClient: Promise<GoTrueClient> | undefined;
const loadAuthClient = () => {
  authClient ??= import('@/lib/auth-client.js').then((module) =>
    module.createAuthClient(window.location.origin),
  );
  return authClient;
};

createRoot(root).render(
  <StrictMode>
    <App authClient={loadAuthClient} />
  </StrictMode>,
);

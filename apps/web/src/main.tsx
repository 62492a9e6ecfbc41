import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/index.js';
import { createAuthClient } from '@/lib/auth-client.js';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// Created once, outside React, so StrictMode's double rendering cannot start a second client.
const authClient = createAuthClient(window.location.origin);

createRoot(root).render(
  <StrictMode>
    <App authClient={authClient} />
  </StrictMode>,
);

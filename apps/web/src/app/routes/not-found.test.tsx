import { screen, waitFor } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

it('shows the not-found page for an unknown path and logs the path', async () => {
  const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  renderApp('/no/such/page', createFakeAuthServer());

  expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
  expect(screen.getByText('Oops! Page not found')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  // Effects (the log, the title) run after the first paint, so they may follow the heading.
  await waitFor(() =>
    expect(consoleError).toHaveBeenCalledWith(
      '404 Error: User attempted to access non-existent route:',
      '/no/such/page',
    ),
  );
  await waitFor(() => expect(document.title).toBe('Page not found | Covenant'));
});

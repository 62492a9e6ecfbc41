import { screen, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

it('shows the sections in order, each leading to its page', async () => {
  renderApp('/', createFakeAuthServer());

  const main = within(await screen.findByRole('main'));
  const sections = (await main.findAllByRole('region')).map((section) =>
    section.getAttribute('aria-labelledby'),
  );
  expect(sections).toEqual(['hero-heading', 'features-heading', 'how-it-works-heading', 'security-heading']);
  const links = [
    ['Start Trading', '/trading'],
    ['Learn More', '/features'],
    ['Explore All Features', '/features'],
    ['Start Your First Trade', '/trading'],
    ['Learn More About Security', '/security'],
  ];
  for (const [name, href] of links) {
    expect(main.getByRole('link', { name })).toHaveAttribute('href', href);
  }
});

it('has the header links and the twelve footer links', async () => {
  renderApp('/', createFakeAuthServer());

  const nav = within(await screen.findByRole('navigation', { name: 'Main' }));
  expect(nav.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
    '/features',
    '/security',
    '/trading',
  ]);
  const footer = within(screen.getByRole('contentinfo'));
  const footerPages = footer
    .getAllByRole('link')
    .map((link) => link.getAttribute('href'))
    .filter((href) => href !== '/');
  expect(footerPages).toEqual([
    '/features',
    '/security',
    '/how-it-works',
    '/covenant-meet',
    '/documentation',
    '/api-reference',
    '/help-center',
    '/contact',
    '/privacy-policy',
    '/terms-of-service',
    '/compliance',
    '/risk-disclosure',
  ]);
});

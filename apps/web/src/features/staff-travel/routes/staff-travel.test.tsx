import type { StaffTravelItem } from '@covenant/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { apiError, createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

const deal = {
  id: 'deal-1',
  status: 'escrow_funded',
  stable_chain: 'ETH',
  stable_symbol: 'USDC',
  travel_location: 'Zurich, Paradeplatz',
} as const;
const hotel: StaffTravelItem = {
  id: 'item-hotel',
  deal_id: 'deal-1',
  kind: 'hotel',
  traveller: 'seller',
  details: 'Two nights near Paradeplatz, 1–3 Dec.',
  status: 'requested',
  requested_by: 'buyer',
  quote: null,
  approved_by: [],
  signing_payload: null,
  transaction_hash: null,
  booked_at: null,
  created_at: '2026-11-20T09:00:00.000Z',
  deal,
  traveller_username: 'demo_seller',
};
const flight: StaffTravelItem = {
  ...hotel,
  id: 'item-flight',
  kind: 'flight',
  traveller: 'buyer',
  traveller_username: 'demo_buyer',
  status: 'paid',
  quote: {
    version: 2,
    provider: 'Swiss',
    description: 'LHR–ZRH return',
    amount: '450500000',
    symbol: 'USDC',
    chain: 'ETH',
    payee_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    has_file: false,
    quoted_at: '2026-11-21T09:00:00.000Z',
  },
  approved_by: ['buyer', 'seller'],
};

/** Opens /staff/travel through the whole app (staff gate, header) as staff with `roles` at aal2. */
function openQueue(roles: string[], items: StaffTravelItem[]) {
  const auth = createFakeAuthServer();
  auth.addUser('desk@example.com', 'correct horse', { roles, totpCode: '135790' });
  window.localStorage.setItem(
    authStorageKey,
    JSON.stringify(auth.issueSession('desk@example.com', undefined, 'aal2')),
  );
  const api = createFakeApiServer(auth);
  let queue = items;
  api.on('GET /staff/travel', () => ({ status: 200, body: { data: queue } }));
  api.on('POST /staff/travel/item-hotel/quote', ({ body }) => {
    const quote = body as { amount: string; provider: string; description: string; payee_address: string };
    if (quote.payee_address !== '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed') {
      return apiError(400, 'VALIDATION_FAILED', 'The payee address does not fit the ETH chain', {
        fields: { payee_address: 'The address fails its EIP-55 checksum (mixed case) (ETH)' },
      });
    }
    const quoted: StaffTravelItem = {
      ...hotel,
      status: 'quoted',
      quote: { ...flight.quote!, ...quote, version: 1, symbol: 'USDC', chain: 'ETH' },
      approved_by: [],
    };
    queue = queue.map((item) => (item.id === hotel.id ? quoted : item));
    return { status: 200, body: quoted };
  });
  api.on('POST /staff/travel/item-flight/booked', () => {
    const booked: StaffTravelItem = { ...flight, status: 'booked', booked_at: '2026-11-22T09:00:00.000Z' };
    queue = queue.map((item) => (item.id === flight.id ? booked : item));
    return { status: 200, body: booked };
  });
  api.on('POST /staff/travel/item-hotel/file', () => ({ status: 200, body: hotel }));
  renderApp('/staff/travel', api.server);
  return api;
}

describe('/staff/travel', () => {
  it('lists the requests with deal, traveller, meeting place and quote in whole tokens', async () => {
    openQueue(['concierge'], [hotel, flight]);
    const list = await screen.findByRole('list', { name: 'Travel requests' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getAllByRole('heading')[0]!.textContent)).toEqual([
      'Hotel for demo_seller (seller)',
      'Flight for demo_buyer (buyer)',
    ]);
    expect(within(items[0]!).getByText('Zurich, Paradeplatz')).toBeInTheDocument();
    expect(within(items[0]!).getByText('Waiting for a quote')).toBeInTheDocument();
    expect(
      within(items[1]!).getByText('Version 2: Swiss, 450.5 USDC; approved by buyer and seller'),
    ).toBeInTheDocument();
    // Only open items take a quote; only paid ones can be marked booked.
    expect(within(items[0]!).getByRole('button', { name: 'Send the quote' })).toBeInTheDocument();
    expect(within(items[0]!).queryByRole('button', { name: 'Mark booked' })).not.toBeInTheDocument();
    expect(within(items[1]!).queryByRole('form')).not.toBeInTheDocument();
    expect(within(items[1]!).getByRole('button', { name: 'Mark booked' })).toBeInTheDocument();
  });

  it('sends a quote typed in whole tokens as exact base units, and shows the server’s address refusal', async () => {
    const api = openQueue(['concierge'], [hotel]);
    const form = await screen.findByRole('form', { name: 'Quote for item item-hotel' });
    await userEvent.type(within(form).getByLabelText('Provider'), 'Hotel Baur au Lac');
    await userEvent.type(within(form).getByLabelText('What the quote covers'), 'Two nights, double room');
    await userEvent.type(within(form).getByLabelText('Price (USDC)'), '0');
    await userEvent.type(
      within(form).getByLabelText('Provider’s address on ETH'),
      '0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Send the quote' }));
    expect(
      await within(form).findByText('Enter a price above zero in USDC, e.g. 980.50'),
    ).toBeInTheDocument();
    expect(api.requestsTo('POST /staff/travel/item-hotel/quote')).toHaveLength(0);

    const price = within(form).getByLabelText('Price (USDC)');
    await userEvent.clear(price);
    await userEvent.type(price, '980.05');
    await userEvent.click(within(form).getByRole('button', { name: 'Send the quote' }));
    expect(
      await within(form).findByText('The address fails its EIP-55 checksum (mixed case) (ETH)'),
    ).toBeInTheDocument();

    const address = within(form).getByLabelText('Provider’s address on ETH');
    await userEvent.clear(address);
    await userEvent.type(address, '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    await userEvent.click(within(form).getByRole('button', { name: 'Send the quote' }));
    expect(await screen.findByText('Quote sent to the parties')).toBeInTheDocument();
    const sent = api.requestsTo('POST /staff/travel/item-hotel/quote');
    expect(sent.at(-1)!.body).toEqual({
      provider: 'Hotel Baur au Lac',
      description: 'Two nights, double room',
      amount: '980050000',
      payee_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
    expect(
      await screen.findByText(/Version 1: Hotel Baur au Lac, 980.05 USDC; approved by nobody yet/),
    ).toBeInTheDocument();
  });

  it('marks a paid item booked, and links the page from the concierge’s account menu', async () => {
    const api = openQueue(['concierge'], [flight]);
    await userEvent.click(await screen.findByRole('button', { name: 'Mark booked' }));
    expect(await screen.findByText('Marked booked')).toBeInTheDocument();
    expect(api.requestsTo('POST /staff/travel/item-flight/booked')).toHaveLength(1);
    expect(await screen.findByText('Booked')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark booked' })).not.toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'Account', hidden: true });
    expect(within(menu).getByRole('link', { name: 'Concierge', hidden: true })).toHaveAttribute(
      'href',
      '/staff/travel',
    );
    expect(within(menu).queryByRole('link', { name: 'Disputes', hidden: true })).not.toBeInTheDocument();
  });

  it('uploads the quote or booking confirmation as multipart/form-data', async () => {
    const api = openQueue(['concierge'], [hotel]);
    const list = await screen.findByRole('list', { name: 'Travel requests' });
    const [item] = within(list).getAllByRole('listitem');
    const upload = within(item!).getByRole('button', { name: 'Upload file' });
    expect(upload).toBeDisabled();
    const pdf = new File(['%PDF-1.4 booking BAUR-1'], 'booking.pdf', { type: 'application/pdf' });
    await userEvent.upload(within(item!).getByLabelText(/Quote or booking confirmation/), pdf);
    await userEvent.click(upload);
    expect(await screen.findByText('File attached')).toBeInTheDocument();
    const [sent] = api.requestsTo('POST /staff/travel/item-hotel/file');
    expect(sent!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    // (Under jsdom the file's name does not survive into the request; a browser sends it.)
    expect(sent!.body).toContain('Content-Disposition: form-data; name="file"');
    expect(sent!.body).toContain('%PDF-1.4 booking BAUR-1');
  });

  it('says so when nothing is queued', async () => {
    openQueue(['concierge'], []);
    expect(await screen.findByText('No travel requests.')).toBeInTheDocument();
  });
});

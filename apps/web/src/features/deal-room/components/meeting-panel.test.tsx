import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { openDealAsGrace } from '@/testing/deal-fixture.js';
import { apiError } from '@/testing/fake-api-server.js';
import { renderApp } from '@/testing/render-app.js';

const meeting = {
  location: 'Hotel Baur au Lac, Zurich',
  latitude: '47.366',
  longitude: '8.5392',
  starts_on: '2026-12-01',
  duration: '1-3',
  travel_paid_by: 'split',
};

const openView = {
  required: true,
  meeting,
  status: 'open',
  window: { opens: '2099-11-30T00:00:00.000Z', closes: '2099-12-05T00:00:00.000Z' },
  check_ins: [],
  waived_by: [],
  settlement_waits: true,
};

/** A stand-in for the phone's Geolocation API: a position, or a refusal. */
function stubGeolocation(position: { latitude: number; longitude: number; accuracy: number } | null) {
  Object.defineProperty(navigator, 'geolocation', {
    configurable: true,
    value: {
      getCurrentPosition: (ok: PositionCallback, refused: PositionErrorCallback) =>
        position
          ? ok({ coords: position, timestamp: Date.now() } as unknown as GeolocationPosition)
          : refused({ code: 1, message: 'User denied Geolocation' } as GeolocationPositionError),
    },
  });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'geolocation');
});

/** Grace (the seller) on a funded deal whose terms require a meeting, the meeting view as given. */
function openMeetingDeal(view: Record<string, unknown> = openView, status = 'escrow_funded') {
  const opened = openDealAsGrace({
    status,
    meeting_required: true,
    travel_location: meeting.location,
    meeting,
  });
  opened.api.on('GET /deals/deal-1/cis', { status: 200, body: { buyer: null, seller: null } });
  opened.api.on('GET /deals/deal-1/meeting', { status: 200, body: view });
  opened.api.on('GET /deals/deal-1/travel', { status: 200, body: { data: [] } });
  renderApp('/trading/deals/deal-1', opened.api.server);
  return opened;
}

async function meetingCard() {
  const heading = await screen.findByRole('heading', { name: 'Meeting', level: 2 });
  return within(heading.parentElement as HTMLElement);
}

describe('the deal room’s Meeting panel', () => {
  it('shows the meeting, and checks in with the other party’s typed code and the phone’s position', async () => {
    stubGeolocation({ latitude: 47.3661, longitude: 8.5391, accuracy: 12 });
    const { api } = openMeetingDeal();
    const card = await meetingCard();
    expect(await card.findByText('Hotel Baur au Lac, Zurich')).toBeInTheDocument();
    expect(card.getByText('47.366, 8.5392')).toBeInTheDocument();
    expect(card.getByText('From 2026-12-01 (UTC), 1-3 days')).toBeInTheDocument();
    expect(card.getByText('Split 50/50')).toBeInTheDocument();
    expect(card.getByText('Check-in is open.')).toBeInTheDocument();
    // The deal's progress has its own step for the meeting, between funding and settling.
    const steps = screen.getByRole('list', { name: 'Deal steps' });
    // The three done steps show a check mark (no number) before their label.
    expect(
      within(steps)
        .getAllByRole('listitem')
        .map((step) => step.textContent),
    ).toEqual(['Exchange CIS', 'Agree terms', 'Fund escrow', '4Meet', '5Settle']);
    expect(within(steps).getByText('Meet').closest('li')).toHaveAttribute('aria-current', 'step');
    expect(screen.getByTestId('meeting-check-ins')).toHaveTextContent('Checked in: ada — · GraceHopper —');

    await userEvent.click(card.getByRole('button', { name: 'Check in' }));
    expect(card.getByText("Type ada's code, or scan their QR code.")).toBeInTheDocument();
    expect(api.requestsTo('POST /deals/deal-1/meeting/check-in')).toHaveLength(0);

    const checkIn = {
      party: 'seller',
      at: '2026-12-01T10:00:00.000Z',
      method: 'code',
      within_radius: true,
      distance_meters: 11,
      position: { latitude: 47.3661, longitude: 8.5391 },
    };
    api.on('POST /deals/deal-1/meeting/check-in', () => {
      api.on('GET /deals/deal-1/meeting', { status: 200, body: { ...openView, check_ins: [checkIn] } });
      return { status: 201, body: checkIn };
    });
    await userEvent.type(card.getByLabelText("ada's code"), ' 7KQM-4XPA ');
    await userEvent.click(card.getByRole('button', { name: 'Check in' }));
    await waitFor(() => expect(api.requestsTo('POST /deals/deal-1/meeting/check-in')).toHaveLength(1));
    expect(api.requestsTo('POST /deals/deal-1/meeting/check-in')[0]!.body).toEqual({
      token: '7KQM-4XPA',
      method: 'code',
      latitude: 47.3661,
      longitude: 8.5391,
      accuracy: 12,
    });
    expect(
      await card.findByText(/checked in by code on .*, at the meeting place \(11 m away\)/),
    ).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Check in' })).not.toBeInTheDocument();
    expect(screen.getByTestId('meeting-check-ins')).toHaveTextContent('Checked in: ada — · GraceHopper ✓');
  });

  it('shows the server’s refusal as it is, and checks in without a position when it is refused', async () => {
    stubGeolocation(null);
    const { api } = openMeetingDeal();
    const card = await meetingCard();
    api.on(
      'POST /deals/deal-1/meeting/check-in',
      apiError(422, 'MEETING_CODE_EXPIRED', 'That code has expired: ask for the current one.'),
    );
    await userEvent.type(await card.findByLabelText("ada's code"), 'ABCD-EFGH');
    await userEvent.click(card.getByRole('button', { name: 'Check in' }));
    expect(await card.findByRole('alert')).toHaveTextContent(
      'That code has expired: ask for the current one.',
    );
    expect(api.requestsTo('POST /deals/deal-1/meeting/check-in')[0]!.body).toEqual({
      token: 'ABCD-EFGH',
      method: 'code',
    });
  });

  it('shows the viewer’s own rotating code as a QR and in large type', async () => {
    const { api } = openMeetingDeal();
    api.on('GET /deals/deal-1/meeting/qr', {
      status: 200,
      body: {
        token: 'WXYZ-2345',
        qr_text: 'covenant-meet:deal-1:WXYZ2345',
        expires_at: new Date(Date.now() + 60_000).toISOString(),
      },
    });
    const card = await meetingCard();
    expect(api.requestsTo('GET /deals/deal-1/meeting/qr')).toHaveLength(0);
    await userEvent.click(await card.findByRole('button', { name: 'Show my code' }));
    expect(await card.findByTestId('meeting-code')).toHaveTextContent('WXYZ-2345');
    expect(card.getByRole('img', { name: 'Your check-in QR code' })).toHaveAttribute(
      'data-value',
      'covenant-meet:deal-1:WXYZ2345',
    );
  });

  it('waives the meeting only after a confirm step', async () => {
    const { api } = openMeetingDeal({ ...openView, status: 'scheduled' }, 'terms_agreed');
    const card = await meetingCard();
    expect(await card.findByText(/^Scheduled: check-in opens on 2099-11-30 \(UTC\)/)).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Show my code' })).not.toBeInTheDocument();
    api.on('POST /deals/deal-1/meeting/waive', () => {
      const waived = { ...openView, status: 'scheduled', waived_by: ['seller'] };
      api.on('GET /deals/deal-1/meeting', { status: 200, body: waived });
      return { status: 200, body: waived };
    });
    await userEvent.click(card.getByRole('button', { name: 'Waive the meeting' }));
    const confirm = card.getByRole('alertdialog');
    expect(api.requestsTo('POST /deals/deal-1/meeting/waive')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes, waive the meeting' }));
    await waitFor(() => expect(api.requestsTo('POST /deals/deal-1/meeting/waive')).toHaveLength(1));
    expect(await card.findByText(/waived the meeting/)).toHaveTextContent(
      'GraceHopper (you) has not checked in; waived the meeting',
    );
    expect(card.queryByRole('button', { name: 'Waive the meeting' })).not.toBeInTheDocument();
  });

  it('is not shown, nor asked for, when the terms require no meeting', async () => {
    const { api } = openDealAsGrace({ status: 'escrow_funded' });
    api.on('GET /deals/deal-1/cis', { status: 200, body: { buyer: null, seller: null } });
    renderApp('/trading/deals/deal-1', api.server);
    await screen.findByRole('heading', { name: 'Next step' });
    expect(screen.queryByRole('heading', { name: 'Meeting', level: 2 })).not.toBeInTheDocument();
    expect(api.requestsTo('GET /deals/deal-1/meeting')).toHaveLength(0);
  });

  it('lists travel with its quote, requests an item, and withdraws one not paid yet', async () => {
    const { api } = openMeetingDeal({ ...openView, status: 'scheduled' }, 'terms_agreed');
    const hotel = {
      id: 'travel-1',
      kind: 'hotel',
      traveller: 'buyer',
      details: 'Two nights near Paradeplatz, 1-3 December',
      status: 'quoted',
      requested_by: 'buyer',
      quote: {
        version: 1,
        provider: 'Hotel Savoy',
        description: 'Two nights, double room',
        amount: '640500000', // 640.5 USDC (6 decimals)
        symbol: 'USDC',
        chain: 'ETH',
        payee_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        has_file: false,
        quoted_at: '2026-11-20T10:00:00.000Z',
      },
      approved_by: ['buyer'],
      signing_payload: null,
      transaction_hash: null,
      booked_at: null,
      created_at: '2026-11-19T10:00:00.000Z',
    };
    api.on('GET /deals/deal-1/travel', { status: 200, body: { data: [hotel] } });
    const card = await meetingCard();
    const list = await card.findByRole('list', { name: 'Travel requests' });
    expect(list).toHaveTextContent('Hotel for ada');
    expect(list).toHaveTextContent(
      'Quote: Hotel Savoy, Two nights, double room: 640.5 USDC on ETH, paid to 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed · approved by ada',
    );

    await userEvent.click(card.getByRole('button', { name: 'Request travel' }));
    const form = within(card.getByRole('form', { name: 'Request travel' }));
    await userEvent.click(form.getByRole('button', { name: 'Send request' }));
    expect(
      form.getByText('Say what to book: the dates, the route or the address, and any notes.'),
    ).toBeInTheDocument();
    expect(api.requestsTo('POST /deals/deal-1/travel')).toHaveLength(0);
    api.on('POST /deals/deal-1/travel', { status: 201, body: { ...hotel, id: 'travel-2', quote: null } });
    await userEvent.selectOptions(form.getByLabelText('What'), 'Flight');
    await userEvent.type(form.getByLabelText('Details'), '  ZRH from LHR on 1 December, back on 3 December ');
    await userEvent.click(form.getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(api.requestsTo('POST /deals/deal-1/travel')).toHaveLength(1));
    const [sent] = api.requestsTo('POST /deals/deal-1/travel');
    // Grace is the seller: she travels unless she picks the other party.
    expect(sent!.body).toEqual({
      kind: 'flight',
      traveller: 'seller',
      details: 'ZRH from LHR on 1 December, back on 3 December',
    });
    expect(sent!.headers.get('Idempotency-Key')).toBeTruthy();

    api.on('POST /deals/deal-1/travel/travel-1/cancel', {
      status: 200,
      body: { ...hotel, status: 'cancelled' },
    });
    await userEvent.click(within(list).getByRole('button', { name: 'Withdraw request' }));
    await waitFor(() => expect(api.requestsTo('POST /deals/deal-1/travel/travel-1/cancel')).toHaveLength(1));
  });

  it('lets the seller approve a quote with a click, and then says who is left', async () => {
    const { api } = openMeetingDeal();
    const hotel = {
      id: 'travel-1',
      kind: 'hotel',
      traveller: 'seller',
      details: 'Two nights',
      status: 'quoted',
      requested_by: 'seller',
      quote: {
        version: 2,
        provider: 'Hotel Savoy',
        description: 'Two nights',
        amount: '640500000',
        symbol: 'USDC',
        chain: 'ETH',
        payee_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        has_file: false,
        quoted_at: '2026-11-20T10:00:00.000Z',
      },
      approved_by: [],
      signing_payload: null,
      transaction_hash: null,
      booked_at: null,
      created_at: '2026-11-19T10:00:00.000Z',
    };
    api.on('GET /deals/deal-1/travel', { status: 200, body: { data: [hotel] } });
    const card = await meetingCard();
    const approval = within(await card.findByRole('region', { name: 'Approve this quote' }));
    // Split 50/50, as the terms say; the price comes out of the stablecoin leg without fee.
    expect(
      approval.getByText(/640.5 USDC from the escrow’s stablecoin leg to Hotel Savoy/),
    ).toBeInTheDocument();
    expect(approval.getByText(/Buyer and seller share it half and half/)).toBeInTheDocument();
    api.on('POST /deals/deal-1/travel/travel-1/approve', () => {
      api.on('GET /deals/deal-1/travel', {
        status: 200,
        body: { data: [{ ...hotel, approved_by: ['seller'] }] },
      });
      return { status: 200, body: { changed: true } };
    });
    await userEvent.click(approval.getByRole('button', { name: 'Approve quote' }));
    await waitFor(() => expect(api.requestsTo('POST /deals/deal-1/travel/travel-1/approve')).toHaveLength(1));
    expect(api.requestsTo('POST /deals/deal-1/travel/travel-1/approve')[0]!.body).toEqual({});
    expect(
      await card.findByText(/You approved this quote. It is paid once the other party approves it too./),
    ).toBeInTheDocument();
  });
});

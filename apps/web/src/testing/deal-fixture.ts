import { authStorageKey } from '@/lib/auth-client.js';
import { createFakeApiServer } from './fake-api-server.js';
import { createFakeAuthServer } from './fake-auth-server.js';

/**
 * Grace (the seller, signed in) and Ada (the buyer) on deal `deal-1`: the fake auth and API servers
 * with Grace's session stored, and the deal as `GET /deals/deal-1` answers it, with `changes` applied.
 * Each deal-page test adds the answers its panel reads.
 */
export function openDealAsGrace(changes: Record<string, unknown> = {}) {
  const auth = createFakeAuthServer();
  const grace = auth.addUser('grace@example.com', 'correct horse');
  window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('grace@example.com')));
  const api = createFakeApiServer(auth);
  const deal = {
    id: 'deal-1',
    buyer_id: 'user-ada',
    seller_id: grace.id,
    counterparty_id: 'user-ada',
    buyer: { id: 'user-ada', username: 'ada', trading_tier: 'enhanced' },
    seller: { id: grace.id, username: 'GraceHopper', trading_tier: 'institutional' },
    asset_chain: 'BTC',
    asset_symbol: 'BTC',
    asset_amount: '50000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '30000000000',
    meeting_required: false,
    travel_location: null,
    status: 'draft',
    terms_version: 1,
    terms_proposed_by: 'user-ada',
    funding_deadline_hours: 24,
    accepted_terms_version: null,
    terms_hash: null,
    terms_agreed_at: null,
    addresses: { buyer: null, seller: null },
    created_at: '2026-03-04T10:00:00.000Z',
    updated_at: '2026-03-04T10:00:00.000Z',
    completed_at: null,
    history: [],
    ...changes,
  };
  api.on('GET /deals/deal-1', { status: 200, body: deal });
  return { auth, api, grace, deal };
}

import { escrowKeyRequestSchema } from '@covenant/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { apiError, createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';
import { decryptEscrowSeed, encryptEscrowSeed, ethereumAccountFromSeed } from '../lib/escrow-seed.js';

const testPhrase = `${'abandon '.repeat(11)}about`;
const testPhraseAddress = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
// The phrase's Bitcoin key on the test networks, at m/84'/1'/0'/0/0 (see bitcoin-escrow-key.test.ts).
const testPhraseBitcoinKey = '02e7ab2537b5d49e970309aae06e9e49f36ce1c9febbd44ec8e0d1cca0b4f9c319';
/** `GET /chains` of a server running Bitcoin escrows on regtest (its fee address says so). */
const chainsWithBitcoin = {
  status: 200,
  body: {
    data: [
      { chain: 'ETH', chain_id: 31337, fee_address: '0xFee0000000000000000000000000000000000000' },
      { chain: 'BTC', chain_id: 0, fee_address: 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx' },
    ],
  },
};
const password = 'a long escrow password';
// The phrase's Solana key at m/44'/501'/0'/0' (see solana-escrow-key.test.ts).
const testPhraseSolanaAddress = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk';
/** `GET /chains` of a server running Bitcoin (regtest) and Solana escrows. */
const chainsWithSolana = {
  status: 200,
  body: {
    data: [
      ...chainsWithBitcoin.body.data,
      {
        chain: 'SOL',
        chain_id: 0,
        network: 'localnet',
        fee_address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
        tokens: [
          { symbol: 'SOL', decimals: 9, address: null },
          { symbol: 'USDC', decimals: 6, address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
        ],
      },
    ],
  },
};

/** Ada signed in on /settings/escrow-key; the fake API keeps what a PUT stores and answers it to GET. */
function openEscrowKeyPage(stored: Record<string, unknown> | null = null) {
  const auth = createFakeAuthServer();
  auth.addUser('ada@example.com', 'correct horse');
  window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('ada@example.com')));
  const api = createFakeApiServer(auth);
  let record = stored;
  api.on('GET /wallets/escrow-key', () =>
    record ? { status: 200, body: record } : apiError(404, 'NOT_FOUND', 'No escrow key yet'),
  );
  api.on('PUT /wallets/escrow-key', (request) => {
    record = {
      ...(request.body as object),
      created_at: '2026-03-04T10:00:00.000Z',
      updated_at: '2026-03-04T10:00:00.000Z',
    };
    return { status: 200, body: record };
  });
  renderApp('/settings/escrow-key', api.server);
  return api;
}

async function choosePassword(first: string, second = first) {
  const field = screen.getByLabelText('Escrow password');
  await userEvent.clear(field);
  await userEvent.type(field, first);
  const confirm = screen.getByLabelText('Confirm escrow password');
  await userEvent.clear(confirm);
  await userEvent.type(confirm, second);
  await userEvent.click(screen.getByRole('button', { name: 'Save escrow key' }));
}

describe('/settings/escrow-key', () => {
  it('creates a key in the browser: the phrase once, the password checked, only ciphertext sent', async () => {
    const api = openEscrowKeyPage();
    expect(await screen.findByText(/Your escrow key signs the payouts of your escrows/)).toHaveTextContent(
      'Covenant cannot read it',
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Create escrow key' }));

    const grid = screen.getByRole('list', { name: 'Backup phrase' });
    const words = within(grid)
      .getAllByRole('listitem')
      .map((item) => item.textContent?.replace(/^\d+/, ''));
    expect(words).toHaveLength(12);
    expect(within(grid).getAllByRole('listitem')[0]).toHaveTextContent(`1${words[0]}`);
    const phrase = words.join(' ');
    // The password comes only once the phrase is written down.
    expect(screen.queryByLabelText('Escrow password')).not.toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('I have written down my backup phrase'));

    await choosePassword('too short');
    expect(screen.getByText('Use at least 12 characters.')).toBeInTheDocument();
    await choosePassword(password, `${password}!`);
    expect(screen.queryByText('Use at least 12 characters.')).not.toBeInTheDocument();
    expect(screen.getByText('The two passwords do not match.')).toBeInTheDocument();
    expect(api.requestsTo('PUT /wallets/escrow-key')).toHaveLength(0);

    await choosePassword(password);
    const status = await screen.findByRole('status', {}, { timeout: 10_000 });
    expect(status).toHaveTextContent('Your escrow key is saved.');
    const address = ethereumAccountFromSeed(phrase).address;
    expect(status).toHaveTextContent(address);

    const [put] = api.requestsTo('PUT /wallets/escrow-key');
    const sent = escrowKeyRequestSchema.parse(put?.body);
    expect(sent.encryption.iterations).toBe(600_000);
    expect(sent.ethereum_address).toBe(address);
    expect(JSON.stringify(put?.body)).not.toContain(words[0]);
    expect(JSON.stringify(put?.body)).not.toContain(password);
    expect(await decryptEscrowSeed(sent, password)).toBe(phrase);

    // The phrase is gone from the page; the stored key is shown instead.
    expect(screen.queryByRole('list', { name: 'Backup phrase' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your escrow key' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Replace escrow key' })).toBeInTheDocument();
  });

  it('restores a key from its backup phrase, refusing a phrase that is not one', async () => {
    const api = openEscrowKeyPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Restore from backup phrase' }));
    const words = screen.getByLabelText('Backup phrase');
    // Real words, but the last one breaks the checksum: a typo caught before anything is stored.
    await userEvent.type(words, `${'abandon '.repeat(11)}abandon`);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('That backup phrase is not valid.')).toBeInTheDocument();

    await userEvent.clear(words);
    await userEvent.type(words, `  ${testPhrase.toUpperCase()}  `);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(testPhraseAddress)).toBeInTheDocument();
    await choosePassword(password);
    expect(await screen.findByRole('status', {}, { timeout: 10_000 })).toHaveTextContent(testPhraseAddress);
    const sent = escrowKeyRequestSchema.parse(api.requestsTo('PUT /wallets/escrow-key')[0]?.body);
    expect(sent.ethereum_address).toBe(testPhraseAddress);
    expect(await decryptEscrowSeed(sent, password)).toBe(testPhrase);
    // The server lists no Bitcoin: no Bitcoin key is registered.
    expect(api.requestsTo('POST /wallets/connect')).toHaveLength(0);
  });

  it('registers the Bitcoin public key with the key where the server runs Bitcoin escrows', async () => {
    const api = openEscrowKeyPage();
    api.on('GET /chains', chainsWithBitcoin);
    api.on('POST /wallets/connect', (request) => ({
      status: 201,
      body: {
        chain: 'BTC',
        address: (request.body as { public_key: string }).public_key,
        connected_at: '2026-03-04T10:00:00.000Z',
      },
    }));
    await userEvent.click(await screen.findByRole('button', { name: 'Restore from backup phrase' }));
    await userEvent.type(screen.getByLabelText('Backup phrase'), testPhrase);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await choosePassword(password);
    const status = await screen.findByRole('status', {}, { timeout: 10_000 });
    expect(status).toHaveTextContent(testPhraseAddress);
    expect(status).toHaveTextContent(`Bitcoin signing key: ${testPhraseBitcoinKey}`);
    expect(api.requestsTo('POST /wallets/connect').map((request) => request.body)).toEqual([
      { chain: 'BTC', public_key: testPhraseBitcoinKey },
    ]);
  });

  it('registers the Bitcoin key of a key saved before Bitcoin was offered, once unlocked', async () => {
    const stored = {
      ...(await encryptEscrowSeed(testPhrase, password, 1_000)),
      ethereum_address: testPhraseAddress,
      created_at: '2026-03-04T10:00:00.000Z',
      updated_at: '2026-03-04T10:00:00.000Z',
    };
    const api = openEscrowKeyPage(stored);
    api.on('GET /chains', chainsWithBitcoin);
    const eth = { chain: 'ETH', address: testPhraseAddress, balances: null, held_in_escrow: [] };
    api.on('GET /wallets/balance', { status: 200, body: { data: [eth] } });
    api.on('POST /wallets/connect', () => {
      const btc = { chain: 'BTC', address: testPhraseBitcoinKey, balances: null, held_in_escrow: [] };
      api.on('GET /wallets/balance', { status: 200, body: { data: [btc, eth] } });
      return {
        status: 201,
        body: { chain: 'BTC', address: testPhraseBitcoinKey, connected_at: stored.created_at },
      };
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Register Bitcoin key' }));
    await userEvent.type(screen.getByLabelText('Escrow password'), password);
    await userEvent.click(screen.getByRole('button', { name: 'Register Bitcoin key' }));
    expect(await screen.findByText(testPhraseBitcoinKey, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(api.requestsTo('POST /wallets/connect').map((request) => request.body)).toEqual([
      { chain: 'BTC', public_key: testPhraseBitcoinKey },
    ]);
  });

  it('registers the Solana address with the key where the server runs Solana escrows', async () => {
    const api = openEscrowKeyPage();
    api.on('GET /chains', chainsWithSolana);
    api.on('POST /wallets/connect', (request) => {
      const body = request.body as { chain: string; public_key?: string; address?: string };
      return {
        status: 201,
        body: {
          chain: body.chain,
          address: body.public_key ?? body.address,
          connected_at: '2026-03-04T10:00:00.000Z',
        },
      };
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Restore from backup phrase' }));
    await userEvent.type(screen.getByLabelText('Backup phrase'), testPhrase);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await choosePassword(password);
    const status = await screen.findByRole('status', {}, { timeout: 10_000 });
    expect(status).toHaveTextContent(`Bitcoin signing key: ${testPhraseBitcoinKey}`);
    expect(status).toHaveTextContent(`Solana signing address: ${testPhraseSolanaAddress}`);
    // Only public keys leave the browser: the Bitcoin key, then the Solana address.
    expect(api.requestsTo('POST /wallets/connect').map((request) => request.body)).toEqual([
      { chain: 'BTC', public_key: testPhraseBitcoinKey },
      { chain: 'SOL', address: testPhraseSolanaAddress },
    ]);
  });

  it('says when the key is saved but the Solana address was refused', async () => {
    const api = openEscrowKeyPage();
    api.on('GET /chains', chainsWithSolana);
    api.on('POST /wallets/connect', (request) =>
      (request.body as { chain: string }).chain === 'SOL'
        ? apiError(
            409,
            'CONFLICT',
            'Your address on this chain cannot change while an escrow you sign for is open',
          )
        : {
            status: 201,
            body: { chain: 'BTC', address: testPhraseBitcoinKey, connected_at: '2026-03-04T10:00:00.000Z' },
          },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Restore from backup phrase' }));
    await userEvent.type(screen.getByLabelText('Backup phrase'), testPhrase);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await choosePassword(password);
    expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent(
      'Your escrow key is saved, but its Solana key was not registered. Your address on this chain cannot change',
    );
    expect(api.requestsTo('PUT /wallets/escrow-key')).toHaveLength(1);
  });

  it('registers the Solana key of a key saved before Solana was offered, once unlocked', async () => {
    const stored = {
      ...(await encryptEscrowSeed(testPhrase, password, 1_000)),
      ethereum_address: testPhraseAddress,
      created_at: '2026-03-04T10:00:00.000Z',
      updated_at: '2026-03-04T10:00:00.000Z',
    };
    const api = openEscrowKeyPage(stored);
    api.on('GET /chains', chainsWithSolana);
    const eth = { chain: 'ETH', address: testPhraseAddress, balances: null, held_in_escrow: [] };
    const btc = { chain: 'BTC', address: testPhraseBitcoinKey, balances: null, held_in_escrow: [] };
    api.on('GET /wallets/balance', { status: 200, body: { data: [btc, eth] } });
    api.on('POST /wallets/connect', () => {
      const sol = { chain: 'SOL', address: testPhraseSolanaAddress, balances: null, held_in_escrow: [] };
      api.on('GET /wallets/balance', { status: 200, body: { data: [btc, eth, sol] } });
      return {
        status: 201,
        body: { chain: 'SOL', address: testPhraseSolanaAddress, connected_at: stored.created_at },
      };
    });
    // The Bitcoin key is registered already: only the Solana one is offered.
    expect(await screen.findByText(testPhraseBitcoinKey)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Register Bitcoin key' })).not.toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Register Solana key' }));
    await userEvent.type(screen.getByLabelText('Escrow password'), password);
    await userEvent.click(screen.getByRole('button', { name: 'Register Solana key' }));
    expect(await screen.findByText(testPhraseSolanaAddress, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(api.requestsTo('POST /wallets/connect').map((request) => request.body)).toEqual([
      { chain: 'SOL', address: testPhraseSolanaAddress },
    ]);
  });

  it('shows an existing key, and keeps it when the server refuses the replacement', async () => {
    const stored = {
      ...(await encryptEscrowSeed(testPhrase, password, 1_000)),
      ethereum_address: testPhraseAddress,
      created_at: '2026-03-04T10:00:00.000Z',
      updated_at: '2026-03-04T10:00:00.000Z',
    };
    const api = openEscrowKeyPage(stored);
    expect(await screen.findByText(testPhraseAddress)).toBeInTheDocument();
    expect(screen.getByText(new Date('2026-03-04T10:00:00.000Z').toLocaleDateString())).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Replace escrow key' }));
    api.on(
      'PUT /wallets/escrow-key',
      apiError(
        409,
        'CONFLICT',
        'Your address on this chain cannot change while an escrow you sign for is open',
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Create escrow key' }));
    await userEvent.click(screen.getByLabelText('I have written down my backup phrase'));
    await choosePassword(password);
    expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent(
      'Your address on this chain cannot change while an escrow you sign for is open',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText(testPhraseAddress)).toBeInTheDocument();
    await waitFor(() => expect(api.requestsTo('PUT /wallets/escrow-key')).toHaveLength(1));
  });

  it('is linked from the account menu', async () => {
    openEscrowKeyPage();
    const menu = await screen.findByRole('navigation', { name: 'Account', hidden: true });
    expect(within(menu).getByRole('link', { name: 'Escrow key', hidden: true })).toHaveAttribute(
      'href',
      '/settings/escrow-key',
    );
  });
});

import type { EscrowStatusView } from '@covenant/domain';
import type { BitcoinSigningPayload } from '@covenant/escrow/bitcoin';
import { typedDataFromJson } from '@covenant/escrow/ethereum';
import type { SolanaSigningPayload } from '@covenant/escrow/solana';
import { expect } from 'vitest';
import { signPsbt } from './bitcoin-test-wallet.js';
import { signSolanaMessage } from './solana-test-wallet.js';
import { dealStatus, type EscrowDevnet, type EscrowParty } from './start-escrow-devnet.js';

type LegName = 'asset' | 'stable';

/** The API steps escrow tests take on a devnet (given as a getter: test files start it in beforeAll). */
export function escrowSteps(devnet: () => EscrowDevnet) {
  async function view(party: EscrowParty, dealId: string): Promise<EscrowStatusView> {
    const response = await devnet().call('GET', `/api/v1/deals/${dealId}/escrow`, party.token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  function leg(status: EscrowStatusView, name: LegName) {
    const found = status.legs.find((entry) => entry.leg === name);
    if (!found) throw new Error(`no ${name} leg`);
    return found;
  }

  /** The party signs the leg's release typed data with its escrow key and sends the approval. */
  async function approve(party: EscrowParty, dealId: string, name: LegName) {
    const typed = leg(await view(party, dealId), name).release_typed_data;
    if (!typed) throw new Error(`${name} awaits no approval from this party`);
    const signature = await party.escrowKey.signTypedData(typedDataFromJson(typed));
    const response = await devnet().call('POST', '/api/v1/escrow/release', party.token, {
      deal_id: dealId,
      leg: name,
      signature,
    });
    expect(response.statusCode, response.body).toBe(202);
  }

  /**
   * The party signs the Bitcoin leg's payout PSBT (`signing_payload`) with its Bitcoin escrow key, as
   * the browser does, and posts it; the payload it signed (PSBT and summary).
   */
  async function approvePsbt(party: EscrowParty, dealId: string, name: LegName) {
    const found = leg(await view(party, dealId), name);
    const payload = found.signing_payload as BitcoinSigningPayload | null;
    if (payload?.format !== 'psbt') throw new Error(`${name} awaits no PSBT from this party`);
    if (!party.bitcoin) throw new Error('the party has no Bitcoin key');
    expect(found.signer).toBe(party.bitcoin.publicKey);
    const response = await devnet().call('POST', '/api/v1/escrow/release', party.token, {
      deal_id: dealId,
      leg: name,
      psbt: signPsbt(payload.data, party.bitcoin.privateKey),
    });
    expect(response.statusCode, response.body).toBe(202);
    return payload;
  }

  /**
   * The party signs the Solana leg's payout message (`signing_payload`) with its Solana escrow key,
   * as the browser does, and posts the base58 signature; the payload it signed (message and summary).
   */
  async function approveSolana(party: EscrowParty, dealId: string, name: LegName) {
    const found = leg(await view(party, dealId), name);
    const payload = found.signing_payload as SolanaSigningPayload | null;
    if (payload?.format !== 'solana_message')
      throw new Error(`${name} awaits no Solana signature from this party`);
    if (!party.solana) throw new Error('the party has no Solana key');
    expect(found.signer).toBe(party.solana.address);
    const response = await devnet().call('POST', '/api/v1/escrow/release', party.token, {
      deal_id: dealId,
      leg: name,
      signature: signSolanaMessage(payload.data, party.solana.privateKey),
    });
    expect(response.statusCode, response.body).toBe(202);
    return payload;
  }

  /** The buyer opens the deal's escrow; the legs' deposit addresses. */
  async function openEscrow(dealId: string) {
    const net = devnet();
    const created = await net.call('POST', '/api/v1/escrow/create', net.buyer.token, { deal_id: dealId });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json() as { legs: { leg: string; deposit_address: string }[] };
    const address = (name: string) => body.legs.find((entry) => entry.leg === name)!.deposit_address;
    return { asset: address('asset'), stable: address('stable') };
  }

  /** A deal on these terms, agreed, with its escrow opened: its id and the legs' deposit addresses. */
  async function openedEscrow(terms: Parameters<EscrowDevnet['agreedDeal']>[0]) {
    const dealId = await devnet().agreedDeal(terms);
    return { dealId, deposit: await openEscrow(dealId) };
  }

  /** The party pays a leg's amount of the symbol to its deposit address, then passes run until the leg is funded. */
  async function fundLeg(
    dealId: string,
    name: LegName,
    payment: { from: EscrowParty; symbol: string; to: string; amount: bigint },
  ) {
    const net = devnet();
    await net.pay(payment.from, payment.symbol, payment.to, payment.amount);
    await net.settle(async () => leg(await view(payment.from, dealId), name).state === 'funded');
  }

  /**
   * A deal of these Ethereum terms with its escrow opened and both legs paid in full (the seller the
   * asset, the buyer the stable), passes run until it is funded: its id and deposit addresses.
   */
  async function fundedEscrow(terms: Parameters<EscrowDevnet['agreedDeal']>[0]) {
    const net = devnet();
    const opened = await openedEscrow(terms);
    await net.pay(net.seller, terms.assetSymbol, opened.deposit.asset, terms.assetAmount);
    await net.pay(net.buyer, terms.stableSymbol, opened.deposit.stable, terms.stableAmount);
    await net.settle(async () => (await dealStatus(net.database, opened.dealId)) === 'escrow_funded');
    return opened;
  }

  return { view, leg, approve, approvePsbt, approveSolana, openEscrow, openedEscrow, fundedEscrow, fundLeg };
}

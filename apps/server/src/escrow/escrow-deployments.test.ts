import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { schema } from '@covenant/db';
import { and, eq, inArray } from 'drizzle-orm';
import { createPublicClient, createTestClient, type Hex, http, parseTransaction } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EscrowDevnet, startEscrowDevnet } from '../testing/start-escrow-devnet.js';

// An escrow's deployments are stored signed before they are sent, the relayer's turn ends once they
// are sent, and the engine's passes follow them to their block, replacing one that waits too long by
// the same transaction paying more (same nonce), as for payouts. Opening the escrow does not wait
// here (ESCROW_DEPLOYMENT_WAIT_SECONDS=0): while a deployment is not mined it answers CONFLICT, and
// answers with the escrow once it is. The devnet stops mining on its own (automine off) so
// transactions wait in the mempool as on a busy network.
let net: EscrowDevnet;
/** ESCROW_FEE_BUMP_AFTER_SECONDS, default. */
const bumpAfterMs = 180_000;
const terms = {
  assetSymbol: 'WETH',
  assetAmount: 1_000_000_000_000_000_000n,
  stableSymbol: 'USDC',
  stableAmount: 3_000_000_000n,
};

beforeAll(async () => {
  net = await startEscrowDevnet({ env: { ESCROW_DEPLOYMENT_WAIT_SECONDS: '0' } });
});

afterAll(async () => {
  await net?.automine(true);
  await net?.close();
});

const transport = () => http(net.chain.rpcUrl, { retryCount: 0 });
const client = () => createPublicClient({ chain: foundry, transport: transport(), cacheTime: 0 });
const inMempool = async (hash: string) =>
  client()
    .getTransaction({ hash: hash as Hex })
    .then((transaction) => transaction.blockNumber === null);
const hasCode = async (address: string) => {
  const code = await client().getCode({ address: address as Hex });
  return code !== undefined && code !== '0x';
};

/** How many transactions the relayer has had mined. */
async function relayerNonce(): Promise<number> {
  const key = (await readFile(join(net.app.config.dataDir, 'keys', 'ethereum-relayer.key'), 'utf8')).trim();
  return client().getTransactionCount({
    address: privateKeyToAccount(key as Hex).address,
    blockTag: 'latest',
  });
}

const create = (dealId: string) =>
  net.call('POST', '/api/v1/escrow/create', net.buyer.token, { deal_id: dealId });

/** The deployments the CONFLICT answer names as on their way, as stored. */
async function deploymentsOf(answer: Awaited<ReturnType<typeof create>>) {
  expect(answer.statusCode, answer.body).toBe(409);
  const { error } = answer.json() as {
    error: { code: string; details: { deploying: { leg: string; deposit_address: string }[] } };
  };
  expect(error.code).toBe('CONFLICT');
  const addresses = error.details.deploying.map((leg) => leg.deposit_address);
  expect(error.details.deploying.map((leg) => leg.leg).sort()).toEqual(['asset', 'stable']);
  return storedDeployments(addresses);
}

async function storedDeployments(addresses: string[]) {
  const rows = await net.database.db
    .select()
    .from(schema.escrowRelayerTransactions)
    .where(
      and(
        eq(schema.escrowRelayerTransactions.kind, 'deployment'),
        inArray(schema.escrowRelayerTransactions.subject, addresses),
      ),
    );
  return rows.sort((a, b) => a.leg.localeCompare(b.leg));
}

describe("an escrow's deployment", () => {
  it(`waiting unmined is sent again with a higher fee after ${bumpAfterMs / 1000} s, lands, and the escrow opens with it`, async () => {
    const dealId = await net.agreedDeal(terms);
    const nonceBefore = await relayerNonce();
    await net.automine(false);
    const sent = await deploymentsOf(await create(dealId));
    expect(sent.map((row) => row.status)).toEqual(['submitted', 'submitted']);
    for (const row of sent) expect(await inMempool(row.txRef)).toBe(true);

    // Asked again while they wait: nothing new is signed.
    const again = await deploymentsOf(await create(dealId));
    expect(again.map((row) => [row.id, row.txRef])).toEqual(sent.map((row) => [row.id, row.txRef]));

    // Not yet due: nothing changes.
    await net.clock.advance(bumpAfterMs - 1_000);
    await net.app.escrow.tick();
    expect((await storedDeployments(sent.map((row) => row.subject))).map((row) => row.txRef)).toEqual(
      sent.map((row) => row.txRef),
    );

    await net.clock.advance(2_000);
    await net.app.escrow.tick();
    const bumped = await storedDeployments(sent.map((row) => row.subject));
    for (const [index, row] of bumped.entries()) {
      const first = sent[index]!;
      expect(row).toMatchObject({ id: first.id, status: 'submitted' });
      expect(row.txRef).not.toBe(first.txRef);
      expect(row.replacedTransactions).toEqual([
        { txRef: first.txRef, rawTransaction: first.rawTransaction },
      ]);
      // Same nonce and call, each fee field up by at least 12.5%; the node holds the new version.
      const before = parseTransaction(first.rawTransaction as Hex);
      const after = parseTransaction(row.rawTransaction as Hex);
      expect(after).toMatchObject({ nonce: before.nonce, to: before.to, data: before.data, gas: before.gas });
      expect(after.maxFeePerGas! * 100n).toBeGreaterThanOrEqual(before.maxFeePerGas! * 125n);
      expect(after.maxPriorityFeePerGas! * 100n).toBeGreaterThanOrEqual(before.maxPriorityFeePerGas! * 125n);
      expect(await inMempool(row.txRef)).toBe(true);
    }

    // The network takes the higher-fee versions; the next pass records the escrows as deployed.
    await net.automine(true);
    await net.mine(1);
    await net.app.escrow.tick();
    const landed = await storedDeployments(sent.map((row) => row.subject));
    expect(landed.map((row) => [row.status, row.txRef])).toEqual(
      bumped.map((row) => ['confirmed', row.txRef]),
    );
    for (const row of landed) {
      const receipt = await client().getTransactionReceipt({ hash: row.txRef as Hex });
      expect(receipt.status).toBe('success');
      expect(await hasCode(row.depositAddress)).toBe(true);
    }

    const opened = await create(dealId);
    expect(opened.statusCode, opened.body).toBe(201);
    const legs = (opened.json() as { legs: { leg: string; deposit_address: string }[] }).legs;
    expect(legs.map((leg) => [leg.leg, leg.deposit_address]).sort()).toEqual(
      landed.map((row) => [row.leg, row.depositAddress]),
    );
    // One transaction per leg, whatever the versions.
    expect((await relayerNonce()) - nonceBefore).toBe(2);
    expect(await net.database.db.select().from(schema.staffAlerts)).toEqual([]);
  });

  it('does not hold the relayer: another escrow is deployed on the next nonces while the first waits', async () => {
    const first = await net.agreedDeal(terms);
    const second = await net.agreedDeal(terms);
    const nonceBefore = await relayerNonce();
    await net.automine(false);
    const waiting = await deploymentsOf(await create(first));
    const next = await deploymentsOf(await create(second));
    const nonces = [...waiting, ...next].map((row) => parseTransaction(row.rawTransaction as Hex).nonce);
    expect(nonces.sort()).toEqual([0, 1, 2, 3].map((offset) => nonceBefore + offset));
    for (const row of [...waiting, ...next]) expect(await inMempool(row.txRef)).toBe(true);

    await net.automine(true);
    await net.mine(1);
    await net.app.escrow.tick();
    expect((await create(first)).statusCode).toBe(201);
    expect((await create(second)).statusCode).toBe(201);
    expect((await relayerNonce()) - nonceBefore).toBe(4);
  });

  it('stored but never sent (the process died between) is sent by the next pass, once', async () => {
    const dealId = await net.agreedDeal(terms);
    const nonceBefore = await relayerNonce();
    await net.automine(false);
    const stored = await deploymentsOf(await create(dealId));
    // What a crash right after storing leaves: the rows `submitting`, transactions the node does not hold.
    const testClient = createTestClient({ chain: foundry, mode: 'anvil', transport: transport() });
    for (const row of stored) await testClient.dropTransaction({ hash: row.txRef as Hex });
    await net.database.db
      .update(schema.escrowRelayerTransactions)
      .set({ status: 'submitting' })
      .where(
        inArray(
          schema.escrowRelayerTransactions.id,
          stored.map((row) => row.id),
        ),
      );
    for (const row of stored) {
      await expect(client().getTransaction({ hash: row.txRef as Hex })).rejects.toThrow();
    }
    await net.automine(true);

    // Opening again before a pass signs nothing: the stored deployments are the ones to send.
    expect((await create(dealId)).statusCode).toBe(409);
    expect(await relayerNonce()).toBe(nonceBefore);

    await net.app.escrow.tick();
    await net.app.escrow.tick();
    const resumed = await storedDeployments(stored.map((row) => row.subject));
    expect(resumed.map((row) => [row.status, row.txRef])).toEqual(
      stored.map((row) => ['confirmed', row.txRef]),
    );
    expect((await create(dealId)).statusCode).toBe(201);
    await net.app.escrow.tick();
    expect((await relayerNonce()) - nonceBefore).toBe(2);
  });
});

import { AppError } from '@covenant/domain';
import { legDepositor, legs } from '@covenant/escrow';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { findLeg, findPartyEscrow } from './find-party-escrow.js';
import { refreshEscrows } from './refresh-legs.js';
import { depositIndex, recordDeposit } from './watch-chain.js';

/**
 * `POST /escrow/fund`: a party points at its deposit so it is picked up at once rather than on the
 * watcher's next pass. Nothing reported is trusted: the transaction is read from the chain, and
 * only what it actually paid into the caller's leg counts (the reported amount must match it).
 */
export async function reportDeposit(
  deps: EscrowEngineDeps,
  userId: string,
  input: { dealId: string; transactionHash: string; chain: string; amount: bigint },
): Promise<{ escrowId: string }> {
  const found = await findPartyEscrow(deps.db, userId, { dealId: input.dealId });
  const leg = legs.find((name) => legDepositor[name] === found.party)!;
  const row = await findLeg(deps.db, found.escrow.id, leg);
  if (row.chain !== input.chain) {
    throw new AppError('VALIDATION_FAILED', `You deposit on ${row.chain} in this deal, not ${input.chain}`, {
      issues: [{ path: '/chain', message: `Your leg is on ${row.chain}` }],
    });
  }
  if (row.state !== 'awaiting_deposit' && row.state !== 'partially_funded') {
    throw new AppError('ESCROW_ALREADY_FUNDED', 'Your side of the escrow is already funded', {
      leg,
      state: row.state,
    });
  }
  const chain = deps.chains.get(row.chain);
  if (!chain) throw new AppError('NOT_IMPLEMENTED', `Escrow on ${row.chain} is not available`);
  const status = await chain.adapter.confirmations(input.transactionHash);
  if (status.state !== 'included') {
    throw new AppError(
      'VALIDATION_FAILED',
      'That transaction is not in a block yet; report it once it is mined',
      {
        issues: [{ path: '/transaction_hash', message: 'not mined' }],
      },
    );
  }
  // Reading the transaction's block through the same indexed lookup as the watcher, narrowed to this leg.
  const index = depositIndex(deps, row.chain);
  const scan = await chain.adapter.scanDeposits(
    { fromHeight: status.height, toHeight: status.height },
    {
      match: async (addresses) => {
        const matched = await index.match(addresses);
        return new Map([...matched].filter(([address]) => address === row.depositAddress));
      },
    },
  );
  const movements = scan.movements.filter(
    (movement) => movement.txRef.toLowerCase() === input.transactionHash.toLowerCase(),
  );
  const paid = movements
    .filter(
      (movement) => (movement.tokenAddress ?? '').toLowerCase() === (row.tokenAddress ?? '').toLowerCase(),
    )
    .reduce((sum, movement) => sum + movement.amount, 0n);
  if (paid === 0n) {
    throw new AppError('VALIDATION_FAILED', 'That transaction pays nothing into your deposit address', {
      issues: [{ path: '/transaction_hash', message: `no ${row.symbol} to ${row.depositAddress}` }],
    });
  }
  if (paid !== input.amount) {
    throw new AppError('VALIDATION_FAILED', 'The amount differs from what the transaction paid', {
      issues: [
        {
          path: '/amount',
          message: `the transaction paid ${paid} base units`,
          expected: paid.toString(),
          actual: input.amount.toString(),
        },
      ],
    });
  }
  for (const movement of movements) await recordDeposit(deps, chain, movement);
  await refreshEscrows(deps, [found.escrow.id]);
  return { escrowId: found.escrow.id };
}

import { covenantEscrowAbi } from '@covenant/contracts';
import {
  getAddress,
  type Hex,
  isAddressEqual,
  type PublicClient,
  parseEventLogs,
  TransactionReceiptNotFoundError,
} from 'viem';
import type { OutgoingMovement } from '../escrow-chain-adapter.js';

/**
 * What a mined transaction moved out of the escrow at `depositAddress`, from the escrow's own
 * events: `Paid` is a payout, or a refund when it goes to the depositor (a refund, the excess of a
 * release, the depositor's part of a split); `FeePaid` the fee; `Swept` a late deposit returned.
 * `refundAfterDeadline` logs `RefundedAfterDeadline` and then `Paid` to the depositor for the same
 * value; the former is the refund and the latter is skipped, or the ledger would count it twice.
 * A travel payout logs `TravelPaid` and then `Paid` to the payee for the same value: that `Paid` is
 * `travel` (whoever the payee is), not the settlement's payout.
 */
export async function readOutgoingMovements(
  client: PublicClient,
  txRef: string,
  depositAddress: string,
  depositorRefundAddress: string,
): Promise<{ reverted: boolean; movements: OutgoingMovement[] }> {
  let receipt: Awaited<ReturnType<PublicClient['getTransactionReceipt']>>;
  try {
    receipt = await client.getTransactionReceipt({ hash: txRef as Hex });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return { reverted: false, movements: [] };
    throw error;
  }
  if (receipt.status !== 'success') return { reverted: true, movements: [] };
  const escrow = getAddress(depositAddress);
  const depositor = getAddress(depositorRefundAddress);
  const logs = parseEventLogs({
    abi: covenantEscrowAbi,
    eventName: ['Paid', 'FeePaid', 'RefundedAfterDeadline', 'Swept', 'TravelPaid'],
    logs: receipt.logs.filter((log) => isAddressEqual(log.address, escrow)),
    strict: true,
  });
  const refundedAfterDeadline = logs.some((log) => log.eventName === 'RefundedAfterDeadline');
  // Each TravelPaid names the Paid it goes with: same payee, same amount.
  const travelPaid = logs.flatMap((log) =>
    log.eventName === 'TravelPaid' ? [{ to: getAddress(log.args.payee), amount: log.args.amount }] : [],
  );
  const movements: OutgoingMovement[] = [];
  const at = { blockRef: receipt.blockHash, height: receipt.blockNumber };
  for (const log of logs) {
    const position = log.logIndex;
    if (log.eventName === 'TravelPaid') continue;
    if (log.eventName === 'Paid') {
      const to = getAddress(log.args.to);
      const travel = travelPaid.findIndex((paid) => paid.to === to && paid.amount === log.args.amount);
      if (travel >= 0) {
        travelPaid.splice(travel, 1);
        movements.push({ kind: 'travel', to, amount: log.args.amount, position, ...at });
        continue;
      }
      const kind = to === depositor ? 'refund' : 'payout';
      if (kind === 'refund' && refundedAfterDeadline) continue;
      movements.push({ kind, to, amount: log.args.amount, position, ...at });
    } else if (log.eventName === 'FeePaid') {
      movements.push({ kind: 'fee', to: getAddress(log.args.to), amount: log.args.amount, position, ...at });
    } else if (log.eventName === 'RefundedAfterDeadline') {
      movements.push({ kind: 'refund', to: depositor, amount: log.args.amount, position, ...at });
    } else {
      movements.push({
        kind: 'sweep',
        to: getAddress(log.args.to),
        amount: log.args.amount,
        position,
        ...at,
      });
    }
  }
  return { reverted: false, movements: movements.filter((movement) => movement.amount > 0n) };
}

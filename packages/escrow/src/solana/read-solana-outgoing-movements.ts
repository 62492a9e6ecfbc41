import { base58 } from '@scure/base';
import { signature } from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { LegOutflowContext, OutgoingMovement } from '../escrow-chain-adapter.js';
import { readBlockhash } from './read-solana-tx-status.js';
import type { SolanaChainContext } from './solana-chain-context.js';
import { SOLANA_NATIVE_MINT } from './solana-leg-accounts.js';
import { READ_COMMITMENT } from './solana-rpc.js';
import { accountKeysOf, type JsonTransaction, tokenAmountAt } from './solana-transaction-json.js';

const TRANSFER_CHECKED = 12;
const CLOSE_ACCOUNT = 9;
const SYSTEM_TRANSFER = 2;

const u64At = (bytes: Uint8Array, offset: number) =>
  new DataView(bytes.buffer, bytes.byteOffset + offset, 8).getBigUint64(0, true);

const isSystemTransfer = (instruction: { program: string | undefined; data: Uint8Array }) =>
  instruction.program === SYSTEM_PROGRAM_ADDRESS &&
  instruction.data.length === 12 &&
  new DataView(instruction.data.buffer, instruction.data.byteOffset, 4).getUint32(0, true) ===
    SYSTEM_TRANSFER;

/**
 * What a confirmed payout moved out of a leg, one movement per transfer at its instruction index:
 * a token leg's TransferChecked from the leg's account (to the destination account's owner), a SOL
 * leg's system transfers from the relayer in the transaction that closed the leg's wSOL account.
 * The kind follows the recipient: the fee address, the depositor's refund address (`refund`), else
 * `payout`. A system transfer from the leg's address itself (after its wSOL account closed: only
 * the platform's key of that address signs one) is a `sweep` (`signSweep`). The rent the close returns to the relayer is not a movement. A failed transaction
 * moved nothing (`reverted`).
 */
export async function readSolanaOutgoingMovements(
  context: SolanaChainContext,
  txRef: string,
  leg: LegOutflowContext,
): Promise<{ reverted: boolean; movements: OutgoingMovement[] }> {
  const found = await context.rpc
    .getTransaction(signature(txRef), {
      encoding: 'json',
      maxSupportedTransactionVersion: 0,
      commitment: READ_COMMITMENT,
    })
    .send();
  if (!found) throw new Error(`transaction ${txRef} is not confirmed`);
  // The kit's response type is a union over every encoding; this is the json one.
  const tx = found as unknown as JsonTransaction & { slot: bigint };
  const height = BigInt(tx.slot);
  const blockRef = await readBlockhash(context, height, READ_COMMITMENT);
  if (!blockRef) throw new Error(`the block of slot ${height} holding ${txRef} is unknown to the node`);
  if (!tx.meta || tx.meta.err !== null) return { reverted: true, movements: [] };
  const meta = tx.meta;
  const keys = accountKeysOf(tx);
  const kindOf = (to: string): OutgoingMovement['kind'] =>
    to === context.feeAddress ? 'fee' : to === leg.depositorRefundAddress ? 'refund' : 'payout';
  const legIndex = keys.indexOf(leg.depositAddress);
  const legMint =
    tokenAmountAt(meta.preTokenBalances, legIndex).balance?.mint ??
    tokenAmountAt(meta.postTokenBalances, legIndex).balance?.mint;
  const relayer = (await context.platformKey.relayer()).address;
  const instructions = tx.transaction.message.instructions.map((instruction, position) => ({
    position,
    program: keys[instruction.programIdIndex],
    accounts: instruction.accounts.map((accountIndex) => keys[accountIndex]),
    accountIndexes: instruction.accounts,
    data: base58.decode(instruction.data),
  }));
  const closesLeg = instructions.some(
    (instruction) =>
      instruction.program === TOKEN_PROGRAM_ADDRESS &&
      instruction.data[0] === CLOSE_ACCOUNT &&
      instruction.accounts[0] === leg.depositAddress,
  );
  const movements: OutgoingMovement[] = [];
  for (const instruction of instructions) {
    if (
      instruction.program === TOKEN_PROGRAM_ADDRESS &&
      instruction.data[0] === TRANSFER_CHECKED &&
      instruction.accounts[0] === leg.depositAddress
    ) {
      const destination = instruction.accountIndexes[2]!;
      const owner = tokenAmountAt(meta.postTokenBalances, destination).balance?.owner ?? keys[destination]!;
      movements.push({
        kind: kindOf(owner),
        to: owner,
        amount: u64At(instruction.data, 1),
        position: instruction.position,
        blockRef,
        height,
      });
    }
    if (!isSystemTransfer(instruction)) continue;
    // A sweep: only the platform's key of the leg's address signs a transfer from it.
    const sweep = instruction.accounts[0] === leg.depositAddress;
    if (sweep || (legMint === SOLANA_NATIVE_MINT && closesLeg && instruction.accounts[0] === relayer)) {
      const to = instruction.accounts[1]!;
      movements.push({
        kind: sweep ? 'sweep' : kindOf(to),
        to,
        amount: u64At(instruction.data, 4),
        position: instruction.position,
        blockRef,
        height,
      });
    }
  }
  return { reverted: false, movements };
}

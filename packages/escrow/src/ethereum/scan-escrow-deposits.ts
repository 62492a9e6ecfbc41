import { covenantEscrowAbi } from '@covenant/contracts';
import { type Address, getAbiItem, getAddress, type PublicClient, parseAbiItem } from 'viem';
import type { DepositAddressIndex, DepositMovement, ScanRange, ScanResult } from '../chain-adapter.js';

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const depositedEvent = getAbiItem({ abi: covenantEscrowAbi, name: 'Deposited' });

/** A value that reached some address in a chunk, before the index says whether it is ours. */
interface Candidate {
  to: Address;
  tokenAddress: Address | null;
  from: Address;
  amount: bigint;
  txRef: string;
  position: number;
  blockRef: string;
  height: bigint;
}

/**
 * Finds the deposits to watched escrows in a block range. Per chunk of `maxBlocksPerScan` blocks it
 * makes two log queries whatever the number of open escrows — the configured tokens' Transfer logs
 * (to anyone) and every contract's `Deposited` logs (ETH reaching an escrow's `receive`) — and asks
 * the index once which recipients are escrows. A `Deposited` log counts only because the index
 * knows its emitter: only the factory's clones sit at deposit addresses. A configured token sent to
 * an escrow of another token is returned too: the engine flags it as a wrong-token deposit.
 * Movements come in chain order (height, then log index).
 */
export async function scanEscrowDeposits(
  client: PublicClient,
  tokenAddresses: readonly Address[],
  maxBlocksPerScan: number,
  range: ScanRange,
  index: DepositAddressIndex,
): Promise<ScanResult> {
  const movements: DepositMovement[] = [];
  const step = BigInt(maxBlocksPerScan);
  for (let fromBlock = range.fromHeight; fromBlock <= range.toHeight; fromBlock += step) {
    const toBlock = fromBlock + step - 1n < range.toHeight ? fromBlock + step - 1n : range.toHeight;
    const candidates = await chunkCandidates(client, tokenAddresses, fromBlock, toBlock);
    if (candidates.length === 0) continue;
    const watched = await index.match([...new Set(candidates.map((candidate) => candidate.to))]);
    for (const { to, ...movement } of candidates) {
      const leg = watched.get(to);
      if (leg) movements.push({ watched: leg, ...movement });
    }
  }
  return { movements, scannedTo: range.toHeight };
}

async function chunkCandidates(
  client: PublicClient,
  tokenAddresses: readonly Address[],
  fromBlock: bigint,
  toBlock: bigint,
): Promise<Candidate[]> {
  const [transfers, deposits] = await Promise.all([
    tokenAddresses.length === 0
      ? []
      : client.getLogs({
          address: [...tokenAddresses],
          event: transferEvent,
          fromBlock,
          toBlock,
          strict: true,
        }),
    client.getLogs({ event: depositedEvent, fromBlock, toBlock, strict: true }),
  ]);
  const candidates: Candidate[] = [];
  for (const log of transfers) {
    candidates.push({
      to: getAddress(log.args.to),
      tokenAddress: getAddress(log.address),
      from: getAddress(log.args.from),
      amount: log.args.value,
      txRef: log.transactionHash,
      position: log.logIndex,
      blockRef: log.blockHash,
      height: log.blockNumber,
    });
  }
  for (const log of deposits) {
    candidates.push({
      to: getAddress(log.address),
      tokenAddress: null,
      from: getAddress(log.args.from),
      amount: log.args.amount,
      txRef: log.transactionHash,
      position: log.logIndex,
      blockRef: log.blockHash,
      height: log.blockNumber,
    });
  }
  // Nothing arrives with a zero transfer; such logs are noise (or address-poisoning spam).
  return candidates
    .filter((candidate) => candidate.amount > 0n)
    .sort((a, b) => (a.height === b.height ? a.position - b.position : a.height < b.height ? -1 : 1));
}

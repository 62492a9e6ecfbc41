import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  type Blockhash,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getBase58Decoder,
  getBase58Encoder,
  type Instruction,
  type KeyPairSigner,
  lamports,
  pipe,
  type Signature,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import {
  getCreateAccountInstruction,
  getTransferSolInstruction,
  SYSTEM_PROGRAM_ADDRESS,
} from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { LiteSVM } from 'litesvm';
import { parseStateJson, stringifyStateJson } from './json-with-bigints.js';
import { type PubSubTopic, serveJsonRpc } from './serve-json-rpc.js';
import { readTokenAccount } from './solana-devnet-accounts.js';
import { type Block, SolanaLedger } from './solana-devnet-ledger.js';
import { createSolanaRpcMethods, type SolanaDevnetFaults } from './solana-devnet-rpc.js';

/** Solana's slot subscription. */
const slotTopic: PubSubTopic = {
  subscribe: 'slotSubscribe',
  unsubscribe: 'slotUnsubscribe',
  notification: 'slotNotification',
};

/** Decimals of the devnet's USDC and USDT, as on mainnet. */
export const SOLANA_DEVNET_TOKEN_DECIMALS = 6;
/** What the faucet holds at genesis: a billion SOL. */
const FAUCET_LAMPORTS = 1_000_000_000n * 1_000_000_000n;
/** The Memo program (in LiteSVM's defaults): makes a repeated faucet payment a distinct transaction. */
const MEMO_PROGRAM_ADDRESS = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

export interface SolanaDevnetOptions {
  /** The HTTP JSON-RPC port on 127.0.0.1; a free one without it (or with 0). */
  port?: number;
  /** Closes a slot into a block every this many milliseconds (400, solana's target, by default). */
  slotIntervalMs?: number;
  /** Keeps the ledger, the block history and the devnet's keys here; in memory without it. */
  dataDir?: string;
  /** How many slots `finalized` trails `confirmed` (2 by default). */
  finalityLagSlots?: number;
}

export interface SolanaDevnetFaucet {
  /** Pays `lamports` to `to` in a System transfer; resolves with its signature once it has landed. */
  fundSol(to: string, lamports: bigint): Promise<Signature>;
  /**
   * Mints `amount` base units of `mint` (USDC or USDT) to a token account of that mint, or, given a
   * wallet address, to its associated token account (created in the same transaction when missing).
   */
  fundToken(ownerOrTokenAccount: string, mint: string, amount: bigint): Promise<Signature>;
  /** Mints to several existing token accounts of `mint` in one transaction (a batched payment). */
  fundTokenAccounts(
    mint: string,
    payments: readonly { tokenAccount: string; amount: bigint }[],
  ): Promise<Signature>;
}

export interface SolanaDevnet {
  rpcUrl: string;
  /** `slotSubscribe` over WebSocket, on the RPC's port. */
  wsUrl: string;
  mints: { USDC: Address; USDT: Address };
  /** Mint authority of both test mints. */
  mintAuthority: KeyPairSigner;
  faucet: SolanaDevnetFaucet;
  /** Faults tests ask of the RPC (never set by the product). */
  faults: SolanaDevnetFaults;
  stop(): Promise<void>;
}

/** The devnet's keys as stored in dataDir: 32-byte ed25519 private keys, base58. */
interface DevnetKeys {
  faucet: string;
  mintAuthority: string;
  usdcMint: string;
  usdtMint: string;
}

/**
 * Starts a local Solana devnet: LiteSVM (System, SPL Token and Associated Token programs, the
 * native mint) behind the Solana JSON-RPC on 127.0.0.1, with USDC and USDT test mints, a faucet,
 * and a slot closed into a block on every tick. Its transactions' metas (balances, token balances,
 * logs) are recorded as a validator's RPC reports them, so a client built for a real cluster
 * works against it unchanged.
 */
export async function startSolanaDevnet(options: SolanaDevnetOptions = {}): Promise<SolanaDevnet> {
  const dataDir = options.dataDir;
  const files = dataDir
    ? {
        keys: join(dataDir, 'keys.json'),
        svm: join(dataDir, 'litesvm.bin'),
        blocks: join(dataDir, 'blocks.jsonl'),
      }
    : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true });

  const storedKeys =
    files && existsSync(files.keys) ? (JSON.parse(readFileSync(files.keys, 'utf8')) as DevnetKeys) : null;
  const keys: DevnetKeys = storedKeys ?? {
    faucet: newPrivateKey(),
    mintAuthority: newPrivateKey(),
    usdcMint: newPrivateKey(),
    usdtMint: newPrivateKey(),
  };
  if (files && !storedKeys) writeAtomically(files.keys, JSON.stringify(keys, null, 2));
  const [faucet, mintAuthority, usdcMint, usdtMint] = (await Promise.all(
    [keys.faucet, keys.mintAuthority, keys.usdcMint, keys.usdtMint].map((key) =>
      createKeyPairSignerFromPrivateKeyBytes(getBase58Encoder().encode(key)),
    ),
  )) as [KeyPairSigner, KeyPairSigner, KeyPairSigner, KeyPairSigner];

  const finalityLagSlots = options.finalityLagSlots ?? 2;
  const slotIntervalMs = options.slotIntervalMs ?? 400;
  const storedBlocks =
    files && existsSync(files.svm) && existsSync(files.blocks) ? readBlocks(files.blocks) : [];
  const lastBlock = storedBlocks.at(-1);
  const resumed = lastBlock !== undefined;
  const ledger =
    files && lastBlock
      ? new SolanaLedger(LiteSVM.loadFromFile(files.svm).withSigverify(true), {
          finalityLagSlots,
          resumed: {
            blocks: storedBlocks,
            skippedSlots: Math.floor((Date.now() - lastBlock.blockTime * 1000) / slotIntervalMs),
          },
        })
      : new SolanaLedger(new LiteSVM().withNativeMints(), { finalityLagSlots });

  /**
   * Closes the open slot into a block and keeps it: every block is appended to blocks.jsonl (so no
   * slot number is reused after a crash), the LiteSVM snapshot is rewritten when accounts changed.
   */
  let server: Awaited<ReturnType<typeof serveJsonRpc>> | undefined;
  const closeSlot = () => {
    const block = ledger.closeSlot();
    // Subscribers learn of the slot as a cluster's RPC tells them: the new slot, its parent (the
    // block just closed, confirmed at once here) and the root (finalized).
    server?.publish(slotTopic, {
      parent: block.slot,
      root: ledger.slotAt('finalized'),
      slot: ledger.slotAt('processed'),
    });
    if (!files) return;
    appendFileSync(files.blocks, `${stringifyStateJson(block)}\n`);
    if (block.transactions.length > 0) {
      const temporary = `${files.svm}.tmp`;
      ledger.svm.saveToFile(temporary);
      renameSync(temporary, files.svm);
    }
  };

  let memoCounter = 0;
  /** Signs with the faucet as fee payer and lands the transaction in the open slot. */
  const submit = async (instructions: Instruction[]): Promise<Signature> => {
    for (;;) {
      const { blockhash, lastValidBlockHeight } = ledger.latestBlockhash('processed');
      const message = pipe(
        createTransactionMessage({ version: 'legacy' }),
        (draft) => setTransactionMessageFeePayerSigner(faucet, draft),
        (draft) =>
          setTransactionMessageLifetimeUsingBlockhash(
            { blockhash: blockhash as Blockhash, lastValidBlockHeight: BigInt(lastValidBlockHeight) },
            draft,
          ),
        (draft) => appendTransactionMessageInstructions(instructions, draft),
      );
      const outcome = ledger.send(await signTransactionMessageWithSigners(message));
      if ('landed' in outcome) {
        if (outcome.landed.meta.err !== null) {
          throw new Error(
            `the devnet faucet's transaction failed: ${JSON.stringify(outcome.landed.meta.err)}\n${outcome.landed.meta.logMessages.join('\n')}`,
          );
        }
        return outcome.landed.signature as Signature;
      }
      // The same payment twice in one blockhash's life is the same transaction: tell them apart.
      if (outcome.refused !== 'AlreadyProcessed') {
        throw new Error(`the devnet refused the faucet's transaction: ${JSON.stringify(outcome.refused)}`);
      }
      memoCounter += 1;
      instructions = [
        ...instructions.filter((instruction) => instruction.programAddress !== MEMO_PROGRAM_ADDRESS),
        {
          programAddress: MEMO_PROGRAM_ADDRESS,
          data: new TextEncoder().encode(`covenant faucet ${memoCounter}`),
        },
      ];
    }
  };

  const mints = { USDC: usdcMint.address, USDT: usdtMint.address };
  if (!resumed) {
    if (files) writeAtomically(files.blocks, `${stringifyStateJson(ledger.block(0))}\n`);
    ledger.svm.setAccount({
      address: faucet.address,
      lamports: lamports(FAUCET_LAMPORTS),
      data: new Uint8Array(),
      programAddress: SYSTEM_PROGRAM_ADDRESS,
      executable: false,
      space: 0n,
    });
    const mintRent = ledger.svm.minimumBalanceForRentExemption(BigInt(getMintSize()));
    await submit(
      [usdcMint, usdtMint].flatMap((mint) => [
        getCreateAccountInstruction({
          payer: faucet,
          newAccount: mint,
          lamports: mintRent,
          space: getMintSize(),
          programAddress: TOKEN_PROGRAM_ADDRESS,
        }),
        getInitializeMint2Instruction({
          mint: mint.address,
          decimals: SOLANA_DEVNET_TOKEN_DECIMALS,
          mintAuthority: mintAuthority.address,
        }),
      ]),
    );
    closeSlot();
  }

  const faucetApi: SolanaDevnetFaucet = {
    fundSol: (to, amount) =>
      submit([getTransferSolInstruction({ source: faucet, destination: address(to), amount })]),
    fundToken: async (ownerOrTokenAccount, mint, amount) => {
      const target = address(ownerOrTokenAccount);
      const mintAddress = address(mint);
      if (mintAddress !== mints.USDC && mintAddress !== mints.USDT) {
        throw new Error(
          `the devnet faucet mints only its USDC (${mints.USDC}) and USDT (${mints.USDT}), not ${mint}`,
        );
      }
      const mintTo = (token: Address) =>
        getMintToCheckedInstruction({
          mint: mintAddress,
          token,
          mintAuthority,
          amount,
          decimals: SOLANA_DEVNET_TOKEN_DECIMALS,
        });
      const existing = readTokenAccount(ledger.svm, target);
      if (existing) {
        if (existing.mint !== mintAddress) {
          throw new Error(`${target} is a token account of ${existing.mint}, not of ${mintAddress}`);
        }
        return submit([mintTo(target)]);
      }
      const [ata] = await findAssociatedTokenPda({
        owner: target,
        mint: mintAddress,
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      });
      return submit([
        getCreateAssociatedTokenIdempotentInstruction({
          payer: faucet,
          ata,
          owner: target,
          mint: mintAddress,
        }),
        mintTo(ata),
      ]);
    },
    fundTokenAccounts: (mint, payments) => {
      const mintAddress = address(mint);
      if (mintAddress !== mints.USDC && mintAddress !== mints.USDT) {
        throw new Error(`the devnet faucet mints only its USDC and USDT, not ${mint}`);
      }
      return submit(
        payments.map(({ tokenAccount, amount }) =>
          getMintToCheckedInstruction({
            mint: mintAddress,
            token: address(tokenAccount),
            mintAuthority,
            amount,
            decimals: SOLANA_DEVNET_TOKEN_DECIMALS,
          }),
        ),
      );
    },
  };

  const faults: SolanaDevnetFaults = { sendsAnsweredLate: 0, landAfterMs: 0, beforeNextSends: [] };
  const methods = createSolanaRpcMethods(ledger, (to, amount) => faucetApi.fundSol(to, amount), faults);
  server = await serveJsonRpc(methods, options.port ?? 0, [slotTopic]);
  const ticker = setInterval(closeSlot, slotIntervalMs);
  ticker.unref();

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      clearInterval(ticker);
      await server?.close();
      // What landed since the last tick becomes a block, so a restart keeps it.
      closeSlot();
    })();
    return stopped;
  };
  return {
    rpcUrl: server.url,
    wsUrl: server.url.replace(/^http/, 'ws'),
    mints,
    mintAuthority,
    faucet: faucetApi,
    faults,
    stop,
  };
}

/** The blocks of blocks.jsonl; a last line cut short by a crash is dropped. */
function readBlocks(path: string): Block[] {
  const blocks: Block[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      blocks.push(parseStateJson<Block>(line));
    } catch {
      break;
    }
  }
  return blocks;
}

function newPrivateKey(): string {
  return getBase58Decoder().decode(randomBytes(32));
}

/** Writes a file whole or not at all; the temporary name is the process's own, so two writers never collide. */
function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

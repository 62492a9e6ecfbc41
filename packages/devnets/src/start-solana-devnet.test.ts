import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  createSolanaRpc,
  createTransactionMessage,
  devnet as devnetCluster,
  generateKeyPairSigner,
  getBase64Decoder,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Instruction,
  isSolanaError,
  type KeyPairSigner,
  lamports,
  type Nonce,
  pipe,
  type Signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_BLOCK_NOT_AVAILABLE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SLOT_SKIPPED,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  setTransactionMessageLifetimeUsingDurableNonce,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import {
  getCreateAccountInstruction,
  getInitializeNonceAccountInstruction,
  getTransferSolInstruction,
  SYSTEM_PROGRAM_ADDRESS,
} from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeAccount3Instruction,
  getInitializeMultisig2Instruction,
  getMultisigSize,
  getSyncNativeInstruction,
  getTokenSize,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SolanaDevnet, startSolanaDevnet } from './start-solana-devnet.js';

const SLOT_MS = 25;
const NATIVE_MINT = 'So11111111111111111111111111111111111111112' as Address;
const COMPUTE_BUDGET_PROGRAM_ADDRESS = 'ComputeBudget111111111111111111111111111111' as Address;
/** A System nonce account's size. */
const NONCE_ACCOUNT_SIZE = 80n;

/** A kit client that knows it talks to a test cluster (so it offers requestAirdrop). */
const connect = (url: string) => createSolanaRpc(devnetCluster(url));

let devnet: SolanaDevnet;
let rpc: ReturnType<typeof connect>;

beforeAll(async () => {
  devnet = await startSolanaDevnet({ slotIntervalMs: SLOT_MS });
  rpc = connect(devnet.rpcUrl);
});

afterAll(async () => {
  await devnet?.stop();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, SLOT_MS));
  }
}

/** Waits until the transaction is in a confirmed block; returns its slot. */
async function confirmed(signature: string, on = rpc): Promise<bigint> {
  const status = await until(
    async () => (await on.getSignatureStatuses([signature as Signature]).send()).value[0],
    (value) => value?.confirmationStatus === 'confirmed' || value?.confirmationStatus === 'finalized',
    `${signature} to be confirmed`,
  );
  return status!.slot;
}

async function signed(feePayer: KeyPairSigner, instructions: Instruction[], on = rpc) {
  const { value: latest } = await on.getLatestBlockhash({ commitment: 'confirmed' }).send();
  return signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 'legacy' }),
      (message) => setTransactionMessageFeePayerSigner(feePayer, message),
      (message) => setTransactionMessageLifetimeUsingBlockhash(latest, message),
      (message) => appendTransactionMessageInstructions(instructions, message),
    ),
  );
}

async function send(
  feePayer: KeyPairSigner,
  instructions: Instruction[],
  options: { skipPreflight?: boolean } = {},
) {
  const transaction = await signed(feePayer, instructions);
  return rpc
    .sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64', ...options })
    .send();
}

async function fundedWallet(sol = 1_000_000_000n): Promise<KeyPairSigner> {
  const wallet = await generateKeyPairSigner();
  await confirmed(await devnet.faucet.fundSol(wallet.address, sol));
  return wallet;
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('startSolanaDevnet', () => {
  it('answers requestAirdrop with a signature and getBalance with the lamports', async () => {
    const wallet = await generateKeyPairSigner();
    const signature = await rpc.requestAirdrop(wallet.address, lamports(2_500_000_000n)).send();
    await confirmed(signature);
    expect((await rpc.getBalance(wallet.address, { commitment: 'confirmed' }).send()).value).toBe(
      2_500_000_000n,
    );
    const transaction = await rpc
      .getTransaction(signature, {
        commitment: 'confirmed',
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(transaction?.meta?.err).toBeNull();
  });

  it('lands a System transfer and reports it in statuses, getTransaction and getBlock with its balances', async () => {
    const payer = await fundedWallet();
    const recipient = await generateKeyPairSigner();
    const signature = await send(payer, [
      getTransferSolInstruction({ source: payer, destination: recipient.address, amount: 1_000_000n }),
    ]);
    const slot = await confirmed(signature);

    const transaction = await rpc
      .getTransaction(signature, {
        commitment: 'confirmed',
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(transaction).not.toBeNull();
    const { meta, transaction: body } = transaction!;
    expect(transaction!.slot).toBe(slot);
    expect(transaction!.version).toBe('legacy');
    expect(body.signatures[0]).toBe(signature);
    expect(body.message.accountKeys).toEqual([payer.address, recipient.address, SYSTEM_PROGRAM_ADDRESS]);
    expect(body.message.instructions).toHaveLength(1);
    expect(body.message.accountKeys[body.message.instructions[0]!.programIdIndex]).toBe(
      SYSTEM_PROGRAM_ADDRESS,
    );
    expect(meta?.err).toBeNull();
    // One signature: 5000 lamports. The payer had 1 SOL: 1_000_000_000 − 1_000_000 − 5_000.
    expect(meta?.fee).toBe(5000n);
    expect(meta?.preBalances.slice(0, 2)).toEqual([1_000_000_000n, 0n]);
    expect(meta?.postBalances.slice(0, 2)).toEqual([998_995_000n, 1_000_000n]);
    expect(meta?.logMessages?.[0]).toBe(`Program ${SYSTEM_PROGRAM_ADDRESS} invoke [1]`);

    const block = await rpc
      .getBlock(slot, {
        commitment: 'confirmed',
        encoding: 'json',
        transactionDetails: 'full',
        maxSupportedTransactionVersion: 0,
        rewards: false,
      })
      .send();
    const inBlock = block?.transactions.find((entry) => entry.transaction.signatures[0] === signature);
    expect(inBlock?.meta?.postBalances.slice(0, 2)).toEqual([998_995_000n, 1_000_000n]);
    expect(block?.blockHeight).toBe(slot);
    const previous = await rpc.getBlock(slot - 1n, { commitment: 'confirmed', rewards: false }).send();
    expect(block?.previousBlockhash).toBe(previous?.blockhash);

    const [status] = (await rpc.getSignatureStatuses([signature], { searchTransactionHistory: true }).send())
      .value;
    expect(status).toMatchObject({ slot, err: null });

    // The recipient's history: this transfer only; the payer's: the transfer, then the faucet's payment.
    const received = await rpc.getSignaturesForAddress(recipient.address, { commitment: 'confirmed' }).send();
    expect(received.map((entry) => [entry.signature, entry.slot, entry.err])).toEqual([
      [signature, slot, null],
    ]);
    const paid = await rpc.getSignaturesForAddress(payer.address, { commitment: 'confirmed' }).send();
    expect(paid).toHaveLength(2);
    expect(paid[0]?.signature).toBe(signature);
    const older = await rpc
      .getSignaturesForAddress(payer.address, { commitment: 'confirmed', before: signature })
      .send();
    expect(older.map((entry) => entry.signature)).toEqual([paid[1]?.signature]);
  });

  it('reports the fee actually charged, priority fee included', async () => {
    const payer = await fundedWallet();
    // ComputeBudget SetComputeUnitLimit(200_000) and SetComputeUnitPrice(1_000_000 micro-lamports).
    const limit = new Uint8Array(5);
    limit[0] = 2;
    new DataView(limit.buffer).setUint32(1, 200_000, true);
    const price = new Uint8Array(9);
    price[0] = 3;
    new DataView(price.buffer).setBigUint64(1, 1_000_000n, true);
    const signature = await send(payer, [
      { programAddress: COMPUTE_BUDGET_PROGRAM_ADDRESS, data: limit },
      { programAddress: COMPUTE_BUDGET_PROGRAM_ADDRESS, data: price },
      getTransferSolInstruction({ source: payer, destination: payer.address, amount: 1n }),
    ]);
    await confirmed(signature);
    const transaction = await rpc
      .getTransaction(signature, {
        commitment: 'confirmed',
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    // 5_000 per signature + 200_000 units × 1 lamport per unit (1_000_000 micro-lamports).
    expect(transaction?.meta?.fee).toBe(205_000n);
    expect(transaction!.meta!.preBalances[0]! - transaction!.meta!.postBalances[0]!).toBe(205_000n);
  });

  it('reports an SPL TransferChecked with its pre and post token balances', async () => {
    const alice = await fundedWallet();
    const bob = await generateKeyPairSigner();
    const mint = devnet.mints.USDC;
    await confirmed(await devnet.faucet.fundToken(alice.address, mint, 5_000_000n));
    const [aliceAta] = await findAssociatedTokenPda({
      owner: alice.address,
      mint,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const [bobAta] = await findAssociatedTokenPda({
      owner: bob.address,
      mint,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const signature = await send(alice, [
      getCreateAssociatedTokenIdempotentInstruction({ payer: alice, ata: bobAta, owner: bob.address, mint }),
      getTransferCheckedInstruction({
        source: aliceAta,
        mint,
        destination: bobAta,
        authority: alice,
        amount: 1_250_000n,
        decimals: 6,
      }),
    ]);
    await confirmed(signature);
    const transaction = await rpc
      .getTransaction(signature, {
        commitment: 'confirmed',
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    const keys = transaction!.transaction.message.accountKeys;
    const entry = <T extends { accountIndex: number }>(
      balances: readonly T[] | undefined,
      account: Address,
    ) => balances?.find((balance) => keys[balance.accountIndex] === account);
    const meta = transaction!.meta!;
    expect(entry(meta.preTokenBalances, aliceAta)).toMatchObject({
      mint,
      owner: alice.address,
      programId: TOKEN_PROGRAM_ADDRESS,
      uiTokenAmount: { amount: '5000000', decimals: 6, uiAmountString: '5' },
    });
    // Bob's account is created by this transaction: no pre balance.
    expect(entry(meta.preTokenBalances, bobAta)).toBeUndefined();
    expect(entry(meta.postTokenBalances, aliceAta)?.uiTokenAmount.amount).toBe('3750000');
    expect(entry(meta.postTokenBalances, bobAta)).toMatchObject({
      owner: bob.address,
      uiTokenAmount: { amount: '1250000', uiAmount: 1.25, uiAmountString: '1.25' },
    });

    expect((await rpc.getTokenAccountBalance(bobAta).send()).value.amount).toBe('1250000');
    const owned = await rpc.getTokenAccountsByOwner(bob.address, { mint }, { encoding: 'jsonParsed' }).send();
    expect(owned.value.map((account) => account.pubkey)).toEqual([bobAta]);
    expect(owned.value[0]?.account.data.parsed.info.tokenAmount.amount).toBe('1250000');
  });

  it('accepts a durable-nonce transaction and refuses a second one with the same, now advanced, nonce', async () => {
    const payer = await fundedWallet();
    const nonceAccount = await generateKeyPairSigner();
    const rent = await rpc.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_SIZE).send();
    await confirmed(
      await send(payer, [
        getCreateAccountInstruction({
          payer,
          newAccount: nonceAccount,
          lamports: rent,
          space: NONCE_ACCOUNT_SIZE,
          programAddress: SYSTEM_PROGRAM_ADDRESS,
        }),
        getInitializeNonceAccountInstruction({
          nonceAccount: nonceAccount.address,
          nonceAuthority: payer.address,
        }),
      ]),
    );
    const readNonce = async () => {
      const { value } = await rpc.getAccountInfo(nonceAccount.address, { encoding: 'jsonParsed' }).send();
      const data = value?.data as {
        program: string;
        parsed: { info: { blockhash: string; authority: string } };
      };
      expect(data.program).toBe('nonce');
      expect(data.parsed.info.authority).toBe(payer.address);
      return data.parsed.info.blockhash as Nonce;
    };
    const nonce = await readNonce();
    // A nonce is not a blockhash: only the nonce account makes this transaction valid.
    expect((await rpc.isBlockhashValid(nonce as never).send()).value).toBe(false);
    const recipient = await generateKeyPairSigner();
    const withNonce = (amount: bigint, current = nonce) =>
      signTransactionMessageWithSigners(
        pipe(
          createTransactionMessage({ version: 'legacy' }),
          (message) => setTransactionMessageFeePayerSigner(payer, message),
          (message) =>
            setTransactionMessageLifetimeUsingDurableNonce(
              {
                nonce: current,
                nonceAccountAddress: nonceAccount.address,
                nonceAuthorityAddress: payer.address,
              },
              message,
            ),
          (message) =>
            appendTransactionMessageInstructions(
              [getTransferSolInstruction({ source: payer, destination: recipient.address, amount })],
              message,
            ),
        ),
      );
    const first = await withNonce(10_000_000n);
    const signature = await rpc
      .sendTransaction(getBase64EncodedWireTransaction(first), { encoding: 'base64' })
      .send();
    expect(signature).toBe(getSignatureFromTransaction(first));
    await confirmed(signature);
    expect((await rpc.getBalance(recipient.address).send()).value).toBe(10_000_000n);
    expect(await readNonce()).not.toBe(nonce);

    const stale = await withNonce(20_000_000n);
    const error = await caught(
      rpc.sendTransaction(getBase64EncodedWireTransaction(stale), { encoding: 'base64' }).send(),
    );
    expect(
      isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE),
    ).toBe(true);
    expect(isSolanaError((error as Error).cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND)).toBe(
      true,
    );
    expect((await rpc.getBalance(recipient.address).send()).value).toBe(10_000_000n);

    // A durable-nonce transaction that fails on chain still consumes its nonce, as on a validator.
    const advanced = await readNonce();
    const failing = await withNonce(100_000_000_000n, advanced);
    const failed = await rpc
      .sendTransaction(getBase64EncodedWireTransaction(failing), { encoding: 'base64', skipPreflight: true })
      .send();
    await confirmed(failed);
    const [status] = (await rpc.getSignatureStatuses([failed]).send()).value;
    expect(status?.err).toEqual({ InstructionError: [1n, { Custom: 1n }] });
    expect(await readNonce()).not.toBe(advanced);
  });

  it('runs an escrow leg as the adapter will: 2-of-3 SPL multisig, durable-nonce payout, one signer refused', async () => {
    const relayer = await fundedWallet();
    const [buyer, seller, platform, recipient, multisig, nonceAccount] = (await Promise.all(
      Array.from({ length: 6 }, () => generateKeyPairSigner()),
    )) as [KeyPairSigner, KeyPairSigner, KeyPairSigner, KeyPairSigner, KeyPairSigner, KeyPairSigner];
    const mint = devnet.mints.USDC;
    const [legAccount] = await findAssociatedTokenPda({
      owner: multisig.address,
      mint,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const [recipientAccount] = await findAssociatedTokenPda({
      owner: recipient.address,
      mint,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const rent = (size: number) => rpc.getMinimumBalanceForRentExemption(BigInt(size)).send();
    await confirmed(
      await send(relayer, [
        getCreateAccountInstruction({
          payer: relayer,
          newAccount: nonceAccount,
          lamports: await rent(Number(NONCE_ACCOUNT_SIZE)),
          space: NONCE_ACCOUNT_SIZE,
          programAddress: SYSTEM_PROGRAM_ADDRESS,
        }),
        getInitializeNonceAccountInstruction({
          nonceAccount: nonceAccount.address,
          nonceAuthority: relayer.address,
        }),
        getCreateAccountInstruction({
          payer: relayer,
          newAccount: multisig,
          lamports: await rent(getMultisigSize()),
          space: getMultisigSize(),
          programAddress: TOKEN_PROGRAM_ADDRESS,
        }),
        getInitializeMultisig2Instruction({
          multisig: multisig.address,
          m: 2,
          signers: [buyer.address, seller.address, platform.address],
        }),
        getCreateAssociatedTokenIdempotentInstruction({
          payer: relayer,
          ata: legAccount,
          owner: multisig.address,
          mint,
        }),
      ]),
    );
    await confirmed(await devnet.faucet.fundToken(legAccount, mint, 1_000_000n));
    const { value: custody } = await rpc.getAccountInfo(multisig.address, { encoding: 'jsonParsed' }).send();
    expect((custody!.data as { parsed: unknown }).parsed).toEqual({
      type: 'multisig',
      info: {
        isInitialized: true,
        numRequiredSigners: 2,
        numValidSigners: 3,
        signers: [buyer.address, seller.address, platform.address],
      },
    });

    const { value: nonceInfo } = await rpc
      .getAccountInfo(nonceAccount.address, { encoding: 'jsonParsed' })
      .send();
    const nonce = (nonceInfo!.data as { parsed: { info: { blockhash: Nonce } } }).parsed.info.blockhash;
    const payout = (multiSigners: KeyPairSigner[]) =>
      signTransactionMessageWithSigners(
        pipe(
          createTransactionMessage({ version: 'legacy' }),
          (message) => setTransactionMessageFeePayerSigner(relayer, message),
          (message) =>
            setTransactionMessageLifetimeUsingDurableNonce(
              { nonce, nonceAccountAddress: nonceAccount.address, nonceAuthorityAddress: relayer.address },
              message,
            ),
          (message) =>
            appendTransactionMessageInstructions(
              [
                getCreateAssociatedTokenIdempotentInstruction({
                  payer: relayer,
                  ata: recipientAccount,
                  owner: recipient.address,
                  mint,
                }),
                getTransferCheckedInstruction({
                  source: legAccount,
                  mint,
                  destination: recipientAccount,
                  authority: multisig.address,
                  multiSigners,
                  amount: 1_000_000n,
                  decimals: 6,
                }),
                getCloseAccountInstruction({
                  account: legAccount,
                  destination: relayer.address,
                  owner: multisig.address,
                  multiSigners,
                }),
              ],
              message,
            ),
        ),
      );

    const oneSigner = await caught(
      rpc
        .sendTransaction(getBase64EncodedWireTransaction(await payout([platform])), { encoding: 'base64' })
        .send(),
    );
    expect(
      isSolanaError(oneSigner, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE),
    ).toBe(true);
    expect((oneSigner as { context: { logs: string[] } }).context.logs.join('\n')).toMatch(
      /NotEnoughSigners|failed/,
    );

    const approved = await payout([seller, platform]);
    // Three signatures (relayer, seller, platform) at 5_000 each; the nonce stands for the blockhash.
    const fee = await rpc.getFeeForMessage(getBase64Decoder().decode(approved.messageBytes) as never).send();
    expect(fee.value).toBe(15_000n);
    const signature = await rpc
      .sendTransaction(getBase64EncodedWireTransaction(approved), {
        encoding: 'base64',
        skipPreflight: true,
      })
      .send();
    await confirmed(signature);
    const transaction = await rpc
      .getTransaction(signature, {
        commitment: 'confirmed',
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(transaction?.meta?.err).toBeNull();
    expect((await rpc.getTokenAccountBalance(recipientAccount).send()).value.amount).toBe('1000000');
    expect((await rpc.getAccountInfo(legAccount).send()).value).toBeNull();
    const keys = transaction!.transaction.message.accountKeys;
    const leg = transaction!.meta!.preTokenBalances!.find(
      (balance) => keys[balance.accountIndex] === legAccount,
    );
    expect(leg?.uiTokenAmount.amount).toBe('1000000');
    // Closed in the same transaction: no post balance for the leg's account.
    expect(
      transaction!.meta!.postTokenBalances!.some((balance) => keys[balance.accountIndex] === legAccount),
    ).toBe(false);
  });

  it('refuses a failing transaction in preflight with -32002 and its logs, and lands it with skipPreflight', async () => {
    const payer = await fundedWallet(10_000_000n);
    const recipient = await generateKeyPairSigner();
    const overdraft = [
      getTransferSolInstruction({ source: payer, destination: recipient.address, amount: 50_000_000n }),
    ];
    const error = await caught(send(payer, overdraft));
    expect(
      isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE),
    ).toBe(true);
    const context = (error as { context: { logs?: string[]; unitsConsumed?: bigint } }).context;
    expect(context.logs?.join('\n')).toMatch(/insufficient lamports 9995000, need 50000000/);
    expect((await rpc.getBalance(payer.address).send()).value).toBe(10_000_000n);

    // Without preflight it runs and fails on chain: the fee is charged and the error is in its meta.
    const signature = await send(payer, overdraft, { skipPreflight: true });
    await confirmed(signature);
    const transaction = await rpc
      .getTransaction(signature, {
        commitment: 'confirmed',
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    // kit reads every JSON integer as a bigint.
    expect(transaction?.meta?.err).toEqual({ InstructionError: [0n, { Custom: 1n }] });
    expect(transaction?.meta?.postBalances[0]).toBe(9_995_000n);
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    expect(status?.err).toEqual({ InstructionError: [0n, { Custom: 1n }] });
  });

  it('advances slots and blockhashes on its timer, with finalized lagging confirmed', async () => {
    const first = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const slot = await rpc.getSlot({ commitment: 'confirmed' }).send();
    const later = await until(
      () => rpc.getSlot({ commitment: 'confirmed' }).send(),
      (value) => value >= slot + 3n,
      'three more slots',
    );
    const second = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    expect(second.value.blockhash).not.toBe(first.value.blockhash);
    expect(second.value.lastValidBlockHeight).toBeGreaterThan(first.value.lastValidBlockHeight);
    expect((await rpc.isBlockhashValid(first.value.blockhash).send()).value).toBe(true);

    // Read from the lowest commitment up, so a tick in between cannot invert them.
    const finalized = await rpc.getSlot({ commitment: 'finalized' }).send();
    const confirmedSlot = await rpc.getSlot({ commitment: 'confirmed' }).send();
    const processed = await rpc.getSlot({ commitment: 'processed' }).send();
    expect(confirmedSlot).toBeGreaterThanOrEqual(later);
    expect(processed).toBeGreaterThan(finalized);
    expect(finalized).toBeLessThanOrEqual(confirmedSlot - 2n);

    const blocks = await rpc.getBlocks(slot, later).send();
    expect(blocks).toEqual(
      Array.from({ length: Number(later - slot) + 1 }, (_, index) => slot + BigInt(index)),
    );
    const missing = await caught(rpc.getBlock(processed + 100n, { commitment: 'confirmed' }).send());
    expect(isSolanaError(missing, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_BLOCK_NOT_AVAILABLE)).toBe(true);
  });

  it('funds a wallet (through its associated token account) and a token account, in blocks like any transaction', async () => {
    const owner = await generateKeyPairSigner();
    const mint = devnet.mints.USDT;
    const toWallet = await devnet.faucet.fundToken(owner.address, mint, 2_000_000n);
    const [ata] = await findAssociatedTokenPda({
      owner: owner.address,
      mint,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const toAccount = await devnet.faucet.fundToken(ata, mint, 500_000n);
    expect(toAccount).not.toBe(toWallet);
    const slot = await confirmed(toAccount);
    expect((await rpc.getTokenAccountBalance(ata).send()).value).toMatchObject({
      amount: '2500000',
      uiAmountString: '2.5',
    });
    const block = await rpc
      .getBlock(slot, { commitment: 'confirmed', maxSupportedTransactionVersion: 0, rewards: false })
      .send();
    const inBlock = block?.transactions.find((entry) => entry.transaction.signatures[0] === toAccount);
    const keys = inBlock!.transaction.message.accountKeys;
    const post = inBlock?.meta?.postTokenBalances?.find((balance) => keys[balance.accountIndex] === ata);
    const pre = inBlock?.meta?.preTokenBalances?.find((balance) => keys[balance.accountIndex] === ata);
    expect([pre?.uiTokenAmount.amount, post?.uiTokenAmount.amount]).toEqual(['2000000', '2500000']);
    expect(post?.owner).toBe(owner.address);
    // The same payment twice is still two transactions.
    const again = await devnet.faucet.fundSol(owner.address, 1_000_000n);
    expect(await devnet.faucet.fundSol(owner.address, 1_000_000n)).not.toBe(again);
    expect((await rpc.getBalance(owner.address).send()).value).toBe(2_000_000n);
    await expect(devnet.faucet.fundToken(ata, devnet.mints.USDC, 1n)).rejects.toThrow(/not of/);
  });

  it('holds a native SOL transfer to a wrapped-SOL account as lamports until SyncNative', async () => {
    const payer = await fundedWallet();
    const wsol = await generateKeyPairSigner();
    const rent = await rpc.getMinimumBalanceForRentExemption(BigInt(getTokenSize())).send();
    await confirmed(
      await send(payer, [
        getCreateAccountInstruction({
          payer,
          newAccount: wsol,
          lamports: rent,
          space: getTokenSize(),
          programAddress: TOKEN_PROGRAM_ADDRESS,
        }),
        getInitializeAccount3Instruction({ account: wsol.address, mint: NATIVE_MINT, owner: payer.address }),
      ]),
    );
    const signature = await devnet.faucet.fundSol(wsol.address, 300_000_000n);
    const slot = await confirmed(signature);
    const block = await rpc
      .getBlock(slot, { commitment: 'confirmed', maxSupportedTransactionVersion: 0, rewards: false })
      .send();
    const entry = block?.transactions.find((item) => item.transaction.signatures[0] === signature);
    const index = entry!.transaction.message.accountKeys.indexOf(wsol.address);
    expect(entry!.meta!.postBalances[index]! - entry!.meta!.preBalances[index]!).toBe(300_000_000n);
    expect((await rpc.getTokenAccountBalance(wsol.address).send()).value.amount).toBe('0');
    await confirmed(await send(payer, [getSyncNativeInstruction({ account: wsol.address })]));
    expect((await rpc.getTokenAccountBalance(wsol.address).send()).value).toMatchObject({
      amount: '300000000',
      decimals: 9,
    });
  });

  it('simulates without landing: success, failure in the value, and a replaced blockhash', async () => {
    const payer = await fundedWallet(10_000_000n);
    const recipient = await generateKeyPairSigner();
    const transfer = (amount: bigint) => [
      getTransferSolInstruction({ source: payer, destination: recipient.address, amount }),
    ];
    const ok = await signed(payer, transfer(1_000_000n));
    const success = await rpc
      .simulateTransaction(getBase64EncodedWireTransaction(ok), { encoding: 'base64', sigVerify: true })
      .send();
    expect(success.value.err).toBeNull();
    expect(success.value.logs).toContain(`Program ${SYSTEM_PROGRAM_ADDRESS} success`);
    expect(success.value.unitsConsumed).toBeGreaterThan(0n);
    const failing = await signed(payer, transfer(50_000_000n));
    const failure = await rpc
      .simulateTransaction(getBase64EncodedWireTransaction(failing), { encoding: 'base64' })
      .send();
    expect(failure.value.err).toEqual({ InstructionError: [0n, { Custom: 1n }] });
    expect((await rpc.getBalance(recipient.address).send()).value).toBe(0n);

    // A blockhash this cluster never had: refused as is, runs once the devnet replaces it.
    const unknown = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 'legacy' }),
        (draft) => setTransactionMessageFeePayerSigner(payer, draft),
        (draft) =>
          setTransactionMessageLifetimeUsingBlockhash(
            { blockhash: recipient.address as string as Blockhash, lastValidBlockHeight: 0n },
            draft,
          ),
        (draft) => appendTransactionMessageInstructions(transfer(1_000_000n), draft),
      ),
    );
    const wire = getBase64EncodedWireTransaction(unknown);
    const refused = await rpc.simulateTransaction(wire, { encoding: 'base64' }).send();
    expect(refused.value.err).toBe('BlockhashNotFound');
    const replaced = await rpc
      .simulateTransaction(wire, { encoding: 'base64', replaceRecentBlockhash: true })
      .send();
    expect(replaced.value.err).toBeNull();
    const replacement = replaced.value.replacementBlockhash!.blockhash as Blockhash;
    expect((await rpc.isBlockhashValid(replacement, { commitment: 'processed' }).send()).value).toBe(true);
  });

  it('answers the read-only methods a client needs with their real shapes', async () => {
    expect(await rpc.getHealth().send()).toBe('ok');
    expect((await rpc.getVersion().send())['solana-core']).toMatch(/^\d+\.\d+\.\d+$/);
    const epoch = await rpc.getEpochInfo({ commitment: 'confirmed' }).send();
    expect(epoch.absoluteSlot).toBe(epoch.blockHeight);
    expect(await rpc.getBlockHeight({ commitment: 'confirmed' }).send()).toBeGreaterThanOrEqual(
      epoch.blockHeight,
    );
    expect(await rpc.getMinimumBalanceForRentExemption(0n).send()).toBe(890_880n);

    const payer = await fundedWallet();
    const message = (
      await signed(payer, [
        getTransferSolInstruction({ source: payer, destination: payer.address, amount: 1n }),
      ])
    ).messageBytes;
    const fee = await rpc.getFeeForMessage(getBase64Decoder().decode(message) as never).send();
    expect(fee.value).toBe(5000n);

    const { value: mint } = await rpc.getAccountInfo(devnet.mints.USDC, { encoding: 'jsonParsed' }).send();
    expect(mint?.owner).toBe(TOKEN_PROGRAM_ADDRESS);
    expect((mint!.data as { parsed: { type: string; info: unknown } }).parsed).toEqual({
      type: 'mint',
      info: {
        decimals: 6,
        freezeAuthority: null,
        isInitialized: true,
        mintAuthority: devnet.mintAuthority.address,
        supply: expect.any(String),
      },
    });
    const nobody = await generateKeyPairSigner();
    const { value: accounts } = await rpc
      .getMultipleAccounts([payer.address, nobody.address], { encoding: 'base64' })
      .send();
    expect(accounts[0]).toMatchObject({
      lamports: 1_000_000_000n,
      owner: SYSTEM_PROGRAM_ADDRESS,
      data: ['', 'base64'],
    });
    expect(accounts[1]).toBeNull();
    const missing = await caught(rpc.getTokenAccountBalance(nobody.address).send());
    expect((missing as { context: { __code: number } }).context.__code).toBe(-32602);

    // A block in the other encodings and detail levels.
    const signature = await devnet.faucet.fundSol(nobody.address, 1_000_000n);
    const slot = await confirmed(signature);
    const signatures = await rpc
      .getBlock(slot, { commitment: 'confirmed', transactionDetails: 'signatures', rewards: false })
      .send();
    expect(signatures?.signatures).toContain(signature);
    const base64 = await rpc
      .getBlock(slot, { commitment: 'confirmed', encoding: 'base64', maxSupportedTransactionVersion: 0 })
      .send();
    const wire = base64?.transactions.map((entry) => entry.transaction[0]);
    expect(wire?.some((text) => text.length > 0)).toBe(true);
    const parsed = await caught(
      rpc.getTransaction(signature, { commitment: 'confirmed', encoding: 'jsonParsed' }).send(),
    );
    expect((parsed as { context: { __code: number } }).context.__code).toBe(-32602);
    expect((await rpc.getAccountInfo(NATIVE_MINT, { encoding: 'base64' }).send()).value?.owner).toBe(
      TOKEN_PROGRAM_ADDRESS,
    );
  });

  it("speaks JSON-RPC 2.0: batches, and the error codes of solana's RPC", async () => {
    const post = async (body: string) =>
      (
        await fetch(devnet.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      ).json();
    const batch = (await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'getSlot', params: [{ commitment: 'confirmed' }] },
        { jsonrpc: '2.0', id: 2, method: 'getNothing', params: [] },
        { jsonrpc: '2.0', id: 3, method: 'getBalance', params: ['not-an-address'] },
        { jsonrpc: '2.0', id: 4, method: 'getSlot', params: [{ commitment: 'eventually' }] },
      ]),
    )) as { id: number; result?: number; error?: { code: number } }[];
    expect(batch.map((reply) => reply.id)).toEqual([1, 2, 3, 4]);
    expect(batch[0]?.result).toBeTypeOf('number');
    expect(batch.slice(1).map((reply) => reply.error?.code)).toEqual([-32601, -32602, -32602]);
    expect(await post('{"jsonrpc":')).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await post('[]')).toMatchObject({ error: { code: -32600 } });
    const slot = await rpc.getSlot({ commitment: 'confirmed' }).send();
    const future = (await post(
      JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'getBlock', params: [Number(slot) + 1000] }),
    )) as { error: { code: number; message: string } };
    expect(future.error).toEqual({
      code: -32004,
      message: `Block not available for slot ${Number(slot) + 1000}`,
    });
  });

  it('keeps accounts and block history across a restart from its data directory', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'covenant-solana-devnet-'));
    try {
      const first = await startSolanaDevnet({ slotIntervalMs: SLOT_MS, dataDir });
      const firstRpc = connect(first.rpcUrl);
      const wallet = await generateKeyPairSigner();
      const signature = await first.faucet.fundToken(wallet.address, first.mints.USDC, 7_000_000n);
      const slot = await confirmed(signature, firstRpc);
      const block = await firstRpc.getBlock(slot, { commitment: 'confirmed', rewards: false }).send();
      const genesis = await firstRpc.getGenesisHash().send();
      const lastSlot = await firstRpc.getSlot({ commitment: 'processed' }).send();
      await first.stop();
      // Down for a while: the slots it would have produced are skipped, never reused.
      await new Promise((resolve) => setTimeout(resolve, SLOT_MS * 8));

      const second = await startSolanaDevnet({ slotIntervalMs: SLOT_MS, dataDir });
      try {
        const secondRpc = connect(second.rpcUrl);
        expect(second.mints).toEqual(first.mints);
        expect(second.mintAuthority.address).toBe(first.mintAuthority.address);
        expect(await secondRpc.getGenesisHash().send()).toBe(genesis);
        const [ata] = await findAssociatedTokenPda({
          owner: wallet.address,
          mint: first.mints.USDC,
          tokenProgram: TOKEN_PROGRAM_ADDRESS,
        });
        expect((await secondRpc.getTokenAccountBalance(ata).send()).value.amount).toBe('7000000');
        const again = await secondRpc.getBlock(slot, { commitment: 'confirmed', rewards: false }).send();
        expect(again?.blockhash).toBe(block?.blockhash);
        expect(again?.transactions.map((entry) => entry.transaction.signatures[0])).toContain(signature);
        const resumedAt = await until(
          () => secondRpc.getSlot({ commitment: 'confirmed' }).send(),
          (value) => value > lastSlot + 8n,
          'slots after the restart',
        );
        const blocks = await secondRpc.getBlocks(lastSlot, resumedAt).send();
        const beforeGap = blocks.find((slot, index) => (blocks[index + 1] ?? slot + 1n) > slot + 1n);
        expect(beforeGap).toBeDefined();
        const skipped = await caught(
          secondRpc.getBlock(beforeGap! + 1n, { commitment: 'confirmed', rewards: false }).send(),
        );
        expect(isSolanaError(skipped, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SLOT_SKIPPED)).toBe(true);
        // And it goes on: a new transaction lands after the restart.
        await confirmed(await second.faucet.fundToken(ata, first.mints.USDC, 1_000_000n), secondRpc);
        expect((await secondRpc.getTokenAccountBalance(ata).send()).value.amount).toBe('8000000');
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

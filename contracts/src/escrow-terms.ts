import {
  type Address,
  concatHex,
  encodeAbiParameters,
  getContractAddress,
  type Hex,
  keccak256,
  type TypedDataDefinition,
} from 'viem';

/** One leg's accepted terms, as the escrow and its CREATE2 salt hold them (see CovenantEscrow.sol). */
export interface LegTerms {
  dealId: Hex;
  /** 0 = asset leg (seller gives), 1 = stable leg (buyer gives). */
  leg: 0 | 1;
  /** The ERC-20, or the zero address for ETH. */
  token: Address;
  /** Base units. */
  amount: bigint;
  depositor: Address;
  receiver: Address;
  feeRecipient: Address;
  /** Unix seconds. */
  deadline: bigint;
  buyer: Address;
  seller: Address;
  platform: Address;
}

export const ETH_TOKEN: Address = '0x0000000000000000000000000000000000000000';

/** The escrow's payout actions, as `uint8` in the signed payload. */
export const PayoutAction = { Release: 0, Refund: 1, Split: 2, Travel: 3 } as const;
export type PayoutAction = (typeof PayoutAction)[keyof typeof PayoutAction];

const legTermsParameter = {
  type: 'tuple',
  components: [
    { name: 'dealId', type: 'bytes32' },
    { name: 'leg', type: 'uint8' },
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'depositor', type: 'address' },
    { name: 'receiver', type: 'address' },
    { name: 'feeRecipient', type: 'address' },
    { name: 'deadline', type: 'uint64' },
    { name: 'buyer', type: 'address' },
    { name: 'seller', type: 'address' },
    { name: 'platform', type: 'address' },
  ],
} as const;

/** The CREATE2 salt of a leg's escrow: `keccak256(abi.encode(terms))`. */
export function escrowSalt(terms: LegTerms): Hex {
  return keccak256(encodeAbiParameters([legTermsParameter], [terms]));
}

/** The escrow implementation a factory deploys in its constructor: its first CREATE (nonce 1). */
export function escrowImplementationAddress(factory: Address): Address {
  return getContractAddress({ from: factory, nonce: 1n });
}

/**
 * The deposit address of a leg: where the factory deploys (or has deployed) its EIP-1167 clone.
 * Computed from the terms and the factory alone, as `CovenantEscrowFactory.predictEscrow` does.
 */
export function predictEscrowAddress(factory: Address, terms: LegTerms): Address {
  const implementation = escrowImplementationAddress(factory);
  // EIP-1167 creation code around the implementation address, as OpenZeppelin's Clones builds it.
  const bytecode = concatHex([
    '0x3d602d80600a3d3981f3363d3d373d3d3d363d73',
    implementation,
    '0x5af43d82803e903d91602b57fd5bf3',
  ]);
  return getContractAddress({ opcode: 'CREATE2', from: factory, salt: escrowSalt(terms), bytecode });
}

export interface Payout {
  action: PayoutAction;
  recipients: Address[];
  /** Gross amounts in base units (the fee is taken from each, see CovenantEscrow.sol). */
  amounts: bigint[];
  nonce: bigint;
}

/**
 * RELEASE: the receiver and the leg's amount, exactly as in the terms; with a `charge` (the
 * receiver's share of travel already paid out of the escrow) as a second amount, taken off the
 * receiver's payout. A charge of 0 is left out, as the contract takes `[amount]` to mean no charge.
 */
export function releasePayout(terms: LegTerms, nonce = 0n, charge = 0n): Payout {
  return {
    action: PayoutAction.Release,
    recipients: [terms.receiver],
    amounts: charge === 0n ? [terms.amount] : [terms.amount, charge],
    nonce,
  };
}

/** TRAVEL: exactly `amount` to `payee`, without fee; leaves the escrow open and consumes the nonce. */
export function travelPayout(payee: Address, amount: bigint, nonce = 0n): Payout {
  return { action: PayoutAction.Travel, recipients: [payee], amounts: [amount], nonce };
}

/** REFUND: no recipients or amounts; the whole balance goes to the terms' depositor. */
export function refundPayout(nonce = 0n): Payout {
  return { action: PayoutAction.Refund, recipients: [], amounts: [], nonce };
}

/** SPLIT: gross amounts per recipient; each pays its 1 bp fee, the rest of the balance goes back. */
export function splitPayout(shares: { recipient: Address; amount: bigint }[], nonce = 0n): Payout {
  return {
    action: PayoutAction.Split,
    recipients: shares.map((share) => share.recipient),
    amounts: shares.map((share) => share.amount),
    nonce,
  };
}

export const payoutTypes = {
  Payout: [
    { name: 'action', type: 'uint8' },
    { name: 'recipients', type: 'address[]' },
    { name: 'amounts', type: 'uint256[]' },
    { name: 'nonce', type: 'uint256' },
  ],
} as const;

/** The EIP-712 domain of the escrow at `escrow`: every payload its signers sign is bound to it. */
function escrowDomain(chainId: number, escrow: Address) {
  return { name: 'CovenantEscrow', version: '1', chainId, verifyingContract: escrow } as const;
}

/** The EIP-712 payload a signer signs to approve `payout` of the escrow at `escrow` on `chainId`. */
export function payoutTypedData(
  chainId: number,
  escrow: Address,
  payout: Payout,
): TypedDataDefinition<typeof payoutTypes, 'Payout'> {
  return {
    domain: escrowDomain(chainId, escrow),
    types: payoutTypes,
    primaryType: 'Payout',
    message: payout,
  };
}

/** A return of an asset the escrow does not hold for the deal (see `returnForeignAsset`). */
export interface ForeignReturn {
  /** The platform's id of the mistaken deposit: `foreignArrivalId(txHash, logIndex)`. */
  arrival: Hex;
  /** The token, or the zero address for ETH. */
  asset: Address;
  to: Address;
  amount: bigint;
}

export const foreignReturnTypes = {
  ForeignReturn: [
    { name: 'arrival', type: 'bytes32' },
    { name: 'asset', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
} as const;

/** The id of the deposit a foreign-asset return answers: keccak256 of its transaction hash and log index. */
export function foreignArrivalId(txHash: Hex, logIndex: number): Hex {
  return keccak256(
    encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [txHash, BigInt(logIndex)]),
  );
}

/** The EIP-712 payload a signer signs to return a foreign asset from the escrow at `escrow`. */
export function foreignReturnTypedData(
  chainId: number,
  escrow: Address,
  foreignReturn: ForeignReturn,
): TypedDataDefinition<typeof foreignReturnTypes, 'ForeignReturn'> {
  return {
    domain: escrowDomain(chainId, escrow),
    types: foreignReturnTypes,
    primaryType: 'ForeignReturn',
    message: foreignReturn,
  };
}

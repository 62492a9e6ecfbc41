import { escrowPayoutActions, escrowPayoutFields } from '@covenant/domain';
import { type Address, getAddress, isAddress, type TypedDataDefinition } from 'viem';

// The field list lives in @covenant/domain, where the browser reads it too; a test checks it
// against the contract package's payoutTypes.
const payoutFields = escrowPayoutFields;

/** The escrow's payout actions: RELEASE 0, REFUND 1, SPLIT 2, TRAVEL 3 (see CovenantEscrow.sol). */
const payoutActions: readonly number[] = Object.values(escrowPayoutActions);

/** The EIP-712 types of an escrow payout (`Payout(uint8,address[],uint256[],uint256)`). */
export const payoutTypedDataTypes = { Payout: payoutFields } as const;

/** A payout's EIP-712 typed data as viem signs it, with bigints. */
export type PayoutTypedData = TypedDataDefinition<typeof payoutTypedDataTypes, 'Payout'> & {
  domain: { name: string; version: string; chainId: number; verifyingContract: Address };
  message: { action: number; recipients: readonly Address[]; amounts: readonly bigint[]; nonce: bigint };
};

/**
 * The same typed data in JSON (amounts and nonce as decimal strings): what the API returns as
 * `release_typed_data` and stores with the payout, since JSON has no bigint.
 */
export interface PayoutTypedDataJson {
  domain: { name: string; version: string; chainId: number; verifyingContract: string };
  types: { Payout: { name: string; type: string }[] };
  primaryType: 'Payout';
  message: { action: number; recipients: string[]; amounts: string[]; nonce: string };
}

/** The JSON form of a payout's typed data. */
export function typedDataToJson(typedData: PayoutTypedData): PayoutTypedDataJson {
  return {
    domain: { ...typedData.domain },
    types: { Payout: payoutFields.map((field) => ({ ...field })) },
    primaryType: 'Payout',
    message: {
      action: typedData.message.action,
      recipients: [...typedData.message.recipients],
      amounts: typedData.message.amounts.map((amount) => amount.toString()),
      nonce: typedData.message.nonce.toString(),
    },
  };
}

/**
 * Turns the JSON form back into typed data viem can sign or verify. Throws on anything that is not
 * exactly a payout's typed data, so a signer never signs a payload it did not mean to: other types,
 * an action the escrow does not have, a bad address or a non-integer amount.
 */
export function typedDataFromJson(json: unknown): PayoutTypedData {
  if (!isRecord(json)) return fail('not an object');
  const { domain, types, primaryType, message } = json;
  if (primaryType !== 'Payout') fail('primaryType');
  if (!isRecord(types) || JSON.stringify(types.Payout) !== JSON.stringify(payoutFields)) fail('types');
  if (!isRecord(domain) || !isRecord(message)) return fail('domain or message');
  const { name, version, chainId, verifyingContract } = domain;
  if (typeof name !== 'string' || typeof version !== 'string') fail('domain name or version');
  if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId <= 0) fail('domain chainId');
  const address = (value: unknown, what: string): Address =>
    typeof value === 'string' && isAddress(value, { strict: false }) ? getAddress(value) : fail(what);
  const uint = (value: unknown, what: string): bigint =>
    typeof value === 'string' && /^(0|[1-9][0-9]{0,77})$/.test(value) ? BigInt(value) : fail(what);
  const { action, recipients, amounts, nonce } = message;
  if (typeof action !== 'number' || !payoutActions.includes(action)) fail('action');
  if (!Array.isArray(recipients) || !Array.isArray(amounts)) return fail('recipients or amounts');
  return {
    domain: {
      name,
      version,
      chainId,
      verifyingContract: address(verifyingContract, 'verifyingContract'),
    },
    types: payoutTypedDataTypes,
    primaryType: 'Payout',
    message: {
      action,
      recipients: recipients.map((recipient) => address(recipient, 'recipient')),
      amounts: amounts.map((amount) => uint(amount, 'amount')),
      nonce: uint(nonce, 'nonce'),
    },
  };
}

function fail(reason: string): never {
  throw new Error(`not a payout's typed data: ${reason}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

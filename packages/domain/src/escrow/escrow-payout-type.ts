/**
 * The Ethereum escrow contract's EIP-712 payout, as the server builds it and the browser checks it
 * before it signs: one definition for both (a test checks it against the contract package's
 * `payoutTypes`).
 */

/** CovenantEscrow.sol's `EIP712("CovenantEscrow", "1")`. */
export const escrowPayoutDomain = { name: 'CovenantEscrow', version: '1' } as const;

/** `Payout(uint8 action,address[] recipients,uint256[] amounts,uint256 nonce)`. */
export const escrowPayoutFields = [
  { name: 'action', type: 'uint8' },
  { name: 'recipients', type: 'address[]' },
  { name: 'amounts', type: 'uint256[]' },
  { name: 'nonce', type: 'uint256' },
] as const;

/** CovenantEscrow.sol's `Action`: RELEASE 0, REFUND 1, SPLIT 2, TRAVEL 3. */
export const escrowPayoutActions = { release: 0, refund: 1, split: 2, travel: 3 } as const;

/**
 * Whether typed data's `types` declare exactly the escrow payout and nothing else (the domain's own
 * `EIP712Domain` aside): the field names and types in order, so no other struct can be signed in
 * its place.
 */
export function declaresOnlyEscrowPayout(
  types: Record<string, readonly { name: string; type: string }[]>,
): boolean {
  const { EIP712Domain: _domainTypes, ...declared } = types;
  const payout = declared.Payout;
  return (
    Object.keys(declared).length === 1 &&
    payout !== undefined &&
    payout.length === escrowPayoutFields.length &&
    payout.every(
      (field, index) =>
        field.name === escrowPayoutFields[index]!.name && field.type === escrowPayoutFields[index]!.type,
    )
  );
}

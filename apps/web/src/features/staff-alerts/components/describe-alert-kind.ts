const kinds: Record<string, string> = {
  escrow_reconciliation: 'Escrow books do not balance',
  wrong_token_deposit: 'Deposit of the wrong token',
  foreign_asset_return_failed: 'Return of a wrong-token deposit failed',
  payout_refused: 'Payout refused by the chain',
  payout_not_buildable: 'Payout cannot be built',
  payout_broadcast_refused: 'Payout refused by the node',
  payout_reverted: 'Payout reverted on-chain',
  payout_stuck: 'Payout not mined after fee increases',
  deadline_refund_refused: 'Refund after the deadline refused',
  instruction_after_payout: 'Mediator decision after a payout',
  instruction_not_payable: 'Mediator decision cannot be paid out',
};

/** An alert kind in words; a kind the engine adds later still reads as words rather than a code. */
export function describeAlertKind(kind: string): string {
  const known = kinds[kind];
  if (known) return known;
  const words = kind.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

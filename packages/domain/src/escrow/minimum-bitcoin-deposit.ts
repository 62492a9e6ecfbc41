/**
 * The smallest Bitcoin output counted as a deposit, in sats: 0.0001 BTC. A payout spends every deposit
 * output of its leg, and each 2-of-3 P2WSH input weighs about 104 vB, paid for by the payout's
 * recipient: an output below this costs more than it holds once fees pass about 96 sat/vB, and a
 * counterparty sending a thousand outputs of 330 sats made a leg's payout too large for the network
 * to relay, so it never went. Smaller outputs are left where they are and never counted; the deposit
 * screen asks for at least this much in each payment.
 */
export const minimumBitcoinDepositSats = 10_000n;

import type { EscrowLegWithSigning, LegCustody } from '../api/escrow-leg-signing.js';
import { checkBitcoinCustody } from '../lib/check-bitcoin-custody.js';

const holders = [
  ['buyer', 'Buyer'],
  ['seller', 'Seller'],
  ['platform', 'Covenant'],
] as const;

/**
 * Who holds a Bitcoin leg: the three public keys and the 2-of-3 witness script, folded away, with the
 * address recomputed from them in this browser so the viewer need not take the server's word for it.
 */
export function BitcoinCustody({ leg, custody }: { leg: EscrowLegWithSigning; custody: LegCustody }) {
  const check = checkBitcoinCustody(leg.deposit_address, custody);
  return (
    <details className="space-y-2 text-sm">
      <summary className="cursor-pointer font-medium">Custody: 2-of-3 multisig</summary>
      <p className="text-muted">
        Two of these three keys must sign to move the deposit, so no one can move it alone. Anyone can
        recompute the deposit address from them: it is the P2WSH address of the witness script below, a 2-of-3
        multisig over the three keys in BIP 67 order.
      </p>
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        {holders.map(([party, name]) => (
          <div key={party} className="contents">
            <dt className="text-muted">{name}</dt>
            <dd className="break-all font-mono text-xs">{custody.public_keys[party]}</dd>
          </div>
        ))}
      </dl>
      <p className="text-muted">Witness script</p>
      <code className="block break-all font-mono text-xs">{custody.witness_script}</code>
      {check.ok ? (
        <p className="text-muted">Checked in this browser: the deposit address is this script’s.</p>
      ) : (
        <p role="alert" className="text-destructive">
          {check.reason} Do not deposit to it; contact support.
        </p>
      )}
    </details>
  );
}

import type { EscrowLegWithSigning, SolanaLegCustody } from '../api/escrow-leg-signing.js';
import { checkSolanaCustody } from '../lib/check-solana-custody.js';
import { nativeMint } from '../lib/solana-address.js';

const holders = [
  ['buyer', 'Buyer'],
  ['seller', 'Seller'],
  ['platform', 'Covenant'],
] as const;

/**
 * Who holds a Solana leg: the token multisig and its three keys, the deposit (token) account it
 * owns and the nonce account its payout uses, folded away, with what this browser can recompute
 * from them checked.
 */
export function SolanaCustody({
  leg,
  custody,
  expectedMint,
}: {
  leg: EscrowLegWithSigning;
  custody: SolanaLegCustody;
  expectedMint?: string | null;
}) {
  const check = checkSolanaCustody(leg.deposit_address, custody, expectedMint);
  const sol = custody.mint === nativeMint;
  return (
    <details className="space-y-2 text-sm">
      <summary className="cursor-pointer font-medium">Custody: 2-of-3 multisig</summary>
      <p className="text-muted">
        Two of these three keys must sign to move the deposit, so no one can move it alone. The deposit
        address is a token account owned by a Solana token multisig over these keys; any Solana explorer shows
        both.
      </p>
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        {holders.map(([party, name]) => (
          <div key={party} className="contents">
            <dt className="text-muted">{name}</dt>
            <dd className="break-all font-mono text-xs">{custody.public_keys[party]}</dd>
          </div>
        ))}
        <dt className="text-muted">Multisig</dt>
        <dd className="break-all font-mono text-xs">
          {custody.multisig} ({custody.threshold} of 3)
        </dd>
        <dt className="text-muted">Token account</dt>
        <dd className="break-all font-mono text-xs">{custody.token_account}</dd>
        <dt className="text-muted">Nonce account</dt>
        <dd className="break-all font-mono text-xs">{custody.nonce_account}</dd>
        {sol ? null : (
          <>
            <dt className="text-muted">Token mint</dt>
            <dd className="break-all font-mono text-xs">{custody.mint}</dd>
          </>
        )}
      </dl>
      {!check.ok ? (
        <p role="alert" className="text-destructive">
          {check.reason} Do not deposit to it; contact support.
        </p>
      ) : sol ? (
        <p className="text-muted">
          Checked in this browser: the payment request sends to the deposit address.
        </p>
      ) : (
        <p className="text-muted">
          Checked in this browser: the deposit address is the multisig’s own {leg.symbol} account.
        </p>
      )}
    </details>
  );
}

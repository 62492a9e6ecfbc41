import { useMemo } from 'react';
import { renderSVG } from 'uqr';

/**
 * The deposit address as a QR code, so a phone wallet can pay it without retyping; `value` is what the
 * code holds when it is more than the address (a BIP 21 payment request with its amount).
 */
export function DepositQrCode({ address, value = address }: { address: string; value?: string }) {
  const src = useMemo(() => `data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(value))}`, [value]);
  return (
    <img
      src={src}
      alt="QR code of the deposit address"
      data-value={value}
      width={128}
      height={128}
      // The code needs its light quiet zone on the dark theme to scan.
      className="size-32 shrink-0 rounded-md bg-white p-1"
    />
  );
}

import { useMemo } from 'react';
import { renderSVG } from 'uqr';
import { Spinner } from '@/components/ui/spinner.js';
import { useMeetingCode } from '../api/meeting-code.js';

/**
 * The viewer's own check-in code, for the other party to scan (QR) or type (the code in large type).
 * It changes every 60 seconds; the next one is fetched shortly before the shown one expires.
 */
export function MeetingCodeCard({ dealId }: { dealId: string }) {
  const code = useMeetingCode(dealId, true);
  const src = useMemo(
    () =>
      code.data
        ? `data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(code.data.qr_text, { border: 2 }))}`
        : null,
    [code.data],
  );
  if (code.isError) {
    return (
      <p role="alert" className="text-destructive text-sm">
        {code.error.message}
      </p>
    );
  }
  if (!code.data || !src) return <Spinner label="Loading your code" />;
  return (
    <figure className="flex flex-col items-center gap-3">
      <img
        src={src}
        alt="Your check-in QR code"
        data-value={code.data.qr_text}
        width={240}
        height={240}
        // The code needs its light quiet zone on the dark theme to scan.
        className="size-60 rounded-md bg-white p-2"
      />
      <figcaption className="text-center">
        <span className="block font-mono font-semibold text-4xl tracking-widest" data-testid="meeting-code">
          {code.data.token}
        </span>
        <span className="text-muted text-xs">
          Changes every minute. Valid until {new Date(code.data.expires_at).toLocaleTimeString()}.
        </span>
      </figcaption>
    </figure>
  );
}

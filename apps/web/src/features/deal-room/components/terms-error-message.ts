import { ApiError } from '@/lib/api-client.js';

/** What a refused terms action says to the trader: the server's message, with its details in words. */
export function termsErrorMessage(error: unknown, names: { buyer: string; seller: string }): string {
  if (!(error instanceof ApiError)) return 'The request failed. Check your connection and try again.';
  const details = error.details ?? {};
  if (error.code === 'ADDRESSES_REQUIRED') {
    const missing = Array.isArray(details.missing) ? (details.missing as Array<'buyer' | 'seller'>) : [];
    const invalid = Object.keys((details.invalid as Record<string, unknown> | undefined) ?? {}) as Array<
      'buyer' | 'seller'
    >;
    const parts = [
      missing.length > 0 ? `Addresses missing for: ${missing.map((side) => names[side]).join(', ')}.` : '',
      invalid.length > 0
        ? `Addresses that do not fit the agreed chains: ${invalid.map((side) => names[side]).join(', ')}.`
        : '',
    ];
    return `${error.message}. ${parts.filter(Boolean).join(' ')}`.trim();
  }
  if (error.code === 'CONFLICT' && typeof details.latest_version === 'number') {
    return `${error.message}: version ${details.latest_version} is the latest. Review it before accepting.`;
  }
  return error.message;
}

/** A refused request's messages per field (details.fields), if it named any. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const fields = error.details?.fields;
  return fields && typeof fields === 'object' ? (fields as Record<string, string>) : {};
}

/**
 * Where a verification link may send the browser: the requested address when it is on the site's
 * own origin (anything else would make the link an open redirect), otherwise the site itself.
 */
export function resolveRedirect(publicUrl: string, requested: string | undefined | null): string {
  if (!requested) return publicUrl;
  try {
    const target = new URL(requested, publicUrl);
    return target.origin === new URL(publicUrl).origin ? target.toString() : publicUrl;
  } catch {
    return publicUrl;
  }
}

import { parseSetCookie } from 'cookie';

interface StoredCookie {
  origin: string;
  name: string;
  value: string;
  path: string;
}

/**
 * Just enough of a browser for redirect flows across sites: it follows redirects by hand, keeps each
 * site's cookies (by origin and path) and sends them back. `aliases` maps an origin the app puts into
 * its links (its PUBLIC_URL) to where the test server really listens.
 */
export class TestBrowser {
  private readonly cookies: StoredCookie[] = [];

  constructor(private readonly aliases: Record<string, string> = {}) {}

  /** The Cookie header this browser sends with a request to `url`. */
  cookieHeader(url: URL | string): string {
    const target = new URL(url);
    return this.cookies
      .filter((cookie) => cookie.origin === target.origin && target.pathname.startsWith(cookie.path))
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');
  }

  /** One request as the browser makes it (its cookies along, none followed), storing what it sets. */
  async fetch(url: URL | string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const real = new URL(`${this.aliases[target.origin] ?? target.origin}${target.pathname}${target.search}`);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(target);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(real, { ...init, headers, redirect: 'manual' });
    for (const header of response.headers.getSetCookie()) this.store(target, header);
    return response;
  }

  /**
   * Navigates to `url` and follows redirects while `follow` says so; answers the URL it stopped at
   * (fragment included) and that last answer's status.
   */
  async navigate(url: URL | string, follow: (next: URL) => boolean): Promise<{ url: URL; status: number }> {
    let current = new URL(url);
    for (let hops = 0; hops < 20; hops += 1) {
      const response = await this.fetch(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        return { url: current, status: response.status };
      }
      const next = new URL(location, current);
      if (!follow(next)) return { url: next, status: response.status };
      current = next;
    }
    throw new Error(`more than 20 redirects from ${url}`);
  }

  private store(target: URL, header: string): void {
    const parsed = parseSetCookie(header);
    const path = parsed.path ?? '/';
    const index = this.cookies.findIndex(
      (cookie) => cookie.origin === target.origin && cookie.name === parsed.name && cookie.path === path,
    );
    if (index >= 0) this.cookies.splice(index, 1);
    const expired =
      parsed.maxAge !== undefined
        ? parsed.maxAge <= 0
        : parsed.expires !== undefined && parsed.expires <= new Date();
    if (!expired && parsed.value) {
      this.cookies.push({ origin: target.origin, name: parsed.name, value: parsed.value ?? '', path });
    }
  }
}

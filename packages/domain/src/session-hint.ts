/** The localStorage key of the web app's session, named like supabase-js's own keys (`sb-<project>-auth-token`). */
export const authStorageKey = 'covenant-auth-token';

/** A sign-in or confirmation link's answer in the address's fragment, for the auth client to read. */
export const authLinkAnswerPattern = /(^#|&)(access_token|error|error_code)=/;

/**
 * The one inline script of the pre-rendered public pages, run in <head> before their first paint:
 * when a session is stored (or a sign-in link's answer is in the address), it marks the document
 * `data-session="stored"`, and the stylesheet hides the header's Sign In and Get Started until the
 * app has checked the session. Without it a signed-in visitor saw the signed-out header until the
 * app loaded (the pages are rendered signed out at build time). The same test (one pattern) as the app's
 * `authNeededAtLoad`. The content security policy allows exactly this text, by its SHA-256.
 */
export const sessionHintScript = `try{if(localStorage.getItem(${JSON.stringify(authStorageKey)})!==null||${authLinkAnswerPattern}.test(location.hash))document.documentElement.dataset.session="stored"}catch(e){}`;

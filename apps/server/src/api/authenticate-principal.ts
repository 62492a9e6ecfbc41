import type { AuthDeps } from '../auth/auth-deps.js';
import { identifyCaller } from './identify-caller.js';
import type { Principal } from './principal.js';

/** The caller of `Authorization: Bearer …`, checked in full: for routes outside the authenticated scope. */
export async function authenticatePrincipal(
  deps: Pick<AuthDeps, 'db' | 'signingKey' | 'config' | 'now'>,
  authorization: string | undefined,
): Promise<Principal> {
  return (await identifyCaller(deps, authorization)).load();
}

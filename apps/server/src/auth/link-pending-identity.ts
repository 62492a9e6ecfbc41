import { schema } from '@covenant/db';
import { and, eq, gt } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import { hashOpaqueToken } from './opaque-tokens.js';
import { isUniqueViolation } from './unique-violation.js';

/**
 * Links the provider identity waiting under `linkToken` to `userId`, who has just proved the
 * account's password in the browser that brought the identity. A token of another account, expired
 * or used, links nothing. Returns whether an identity was linked.
 */
export async function linkPendingIdentity(
  deps: Pick<AuthDeps, 'db' | 'now'>,
  linkToken: string,
  userId: string,
): Promise<boolean> {
  const now = deps.now();
  const [pending] = await deps.db
    .delete(schema.pendingIdentityLinks)
    .where(
      and(
        eq(schema.pendingIdentityLinks.tokenHash, hashOpaqueToken(linkToken)),
        eq(schema.pendingIdentityLinks.userId, userId),
        gt(schema.pendingIdentityLinks.expiresAt, now),
      ),
    )
    .returning();
  if (!pending) return false;
  return deps.db
    .insert(schema.identities)
    .values({
      userId,
      provider: pending.provider,
      providerId: pending.providerId,
      email: pending.email,
      identityData: pending.identityData,
      createdAt: now,
      updatedAt: now,
    })
    .then(() => true)
    .catch((error: unknown) => {
      // Linked meanwhile (to this or another account): the first link stands.
      if (isUniqueViolation(error, 'identities_provider_subject_idx')) return false;
      throw error;
    });
}

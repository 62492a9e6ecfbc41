import { schema } from '@covenant/db';
import { and, eq, gt } from 'drizzle-orm';
import { renderIdentityLinkedEmail } from '../email/templates/identity-linked.js';
import type { AuthDeps } from './auth-deps.js';
import { hashOpaqueToken } from './opaque-tokens.js';
import { isUniqueViolation } from './unique-violation.js';

/**
 * Links the provider identity waiting under `linkToken` to `user`, who has just proved the
 * account's password in the browser that brought the identity, and tells the owner by e-mail. A
 * token of another account, expired or used, links nothing. Returns whether an identity was linked.
 */
export async function linkPendingIdentity(
  deps: Pick<AuthDeps, 'db' | 'now' | 'mailer' | 'background' | 'config'>,
  linkToken: string,
  user: { id: string; email: string },
): Promise<boolean> {
  const userId = user.id;
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
    .then(() => {
      deps.background.run('identity linked notice', () =>
        deps.mailer.send(
          renderIdentityLinkedEmail({
            to: user.email,
            googleEmail: pending.email,
            securityUrl: `${deps.config.publicUrl}/settings/security`,
          }),
        ),
      );
      return true;
    })
    .catch((error: unknown) => {
      // Linked meanwhile (to this or another account): the first link stands.
      if (isUniqueViolation(error, 'identities_provider_subject_idx')) return false;
      throw error;
    });
}

import { schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
import { renderIdentityUnlinkedEmail } from '../email/templates/identity-unlinked.js';
import type { AuthDeps } from './auth-deps.js';
import { AuthError, sessionNotFound } from './auth-error.js';
import { loadUserAccountById } from './load-user-account.js';

const identityNotFound = () => new AuthError(404, 'identity_not_found', 'Identity doesn’t exist');

/**
 * Removes one of the user's provider identities (GoTrue's `DELETE /user/identities/{id}`), and tells
 * the owner by e-mail. An identity of another user, or none, is 404; the account's last way to sign
 * in (a Google identity of an account without a password) is GoTrue's 422
 * `single_identity_not_deletable`. The e-mail identity stands for the account's own password and is
 * not removed here.
 */
export async function unlinkIdentity(
  deps: Pick<AuthDeps, 'db' | 'mailer' | 'background' | 'config'>,
  userId: string,
  identityId: string,
): Promise<void> {
  const account = await loadUserAccountById(deps.db, userId);
  if (!account) throw sessionNotFound();
  const identity = account.identities.find((candidate) => candidate.id === identityId);
  const ways = account.identities.length + (account.user.passwordHash !== null ? 1 : 0);
  if (identityId === userId) {
    if (ways <= 1) throw singleIdentity();
    throw new AuthError(
      422,
      'validation_failed',
      'The e-mail identity is the account’s own address and password: change them instead',
    );
  }
  if (!identity) throw identityNotFound();
  if (ways <= 1) throw singleIdentity();
  const [removed] = await deps.db
    .delete(schema.identities)
    .where(and(eq(schema.identities.id, identity.id), eq(schema.identities.userId, userId)))
    .returning();
  if (!removed) throw identityNotFound();
  deps.background.run('identity unlinked notice', () =>
    deps.mailer.send(
      renderIdentityUnlinkedEmail({
        to: account.user.email,
        googleEmail: removed.email,
        securityUrl: `${deps.config.publicUrl}/settings/security`,
      }),
    ),
  );
}

function singleIdentity(): AuthError {
  return new AuthError(
    422,
    'single_identity_not_deletable',
    'User must have at least 1 identity after unlinking',
  );
}

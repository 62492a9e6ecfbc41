import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthDeps } from '../../auth/auth-deps.js';
import { AuthError, sessionNotFound } from '../../auth/auth-error.js';
import { parseEmailAddress } from '../../auth/email-address.js';
import { loadUserAccountById } from '../../auth/load-user-account.js';
import { maximumPasswordLength } from '../../auth/password-policy.js';
import { presentUser } from '../../auth/present-user.js';
import { reauthenticateSession } from '../../auth/reauthenticate-session.js';
import { sendReauthenticationCode } from '../../auth/send-reauthentication-code.js';
import { signOut } from '../../auth/sign-out.js';
import { unlinkIdentity } from '../../auth/unlink-identity.js';
import { updateUser } from '../../auth/update-user.js';
import { userMetadataSchema } from '../../auth/user-metadata.js';
import { authCallerOf } from './enforce-auth-access.js';
import { refusePkce } from './refuse-pkce.js';
import { emptySchema, redirectQuerySchema, sessionSchema, userSchema } from './schemas.js';

const updateUserBodySchema = z.object({
  email: z.string().max(254).optional(),
  phone: z.string().max(32).optional(),
  password: z.string().max(maximumPasswordLength).optional(),
  nonce: z.string().max(64).optional(),
  current_password: z.string().max(maximumPasswordLength).optional(),
  data: userMetadataSchema.optional(),
  code_challenge: z.string().nullish(),
});

/** The signed-in user's own account: read, change, sign out, and the code for sensitive changes. */
export function userRoutes(app: FastifyInstance, deps: AuthDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/user',
    { config: { access: 'session' }, schema: { response: { 200: userSchema } } },
    async (request) => {
      const caller = authCallerOf(request);
      const account = await loadUserAccountById(deps.db, caller.userId);
      if (!account) throw sessionNotFound();
      return presentUser(account);
    },
  );

  routes.put(
    '/user',
    {
      config: { access: 'session', sensitiveWhen: 'changing the e-mail address or the password' },
      schema: { querystring: redirectQuerySchema, body: updateUserBodySchema, response: { 200: userSchema } },
    },
    async (request) => {
      const caller = authCallerOf(request);
      const { body } = request;
      if (body.phone) throw new AuthError(422, 'phone_provider_disabled', 'Phone sign-in is not enabled');
      refusePkce(body);
      return updateUser(
        deps,
        caller,
        {
          email: body.email === undefined ? undefined : parseEmailAddress(body.email),
          password: body.password,
          nonce: body.nonce,
          currentPassword: body.current_password,
          metadata: body.data,
        },
        { redirectTo: request.query.redirect_to, ip: request.ip },
      );
    },
  );

  // The official client's `unlinkIdentity(identity)`. Sensitive (ADR 013): a session that proved its
  // user within the reauthentication window, never an API key.
  routes.delete(
    '/user/identities/:identity_id',
    {
      config: { access: 'sensitive' },
      schema: { params: z.object({ identity_id: z.uuid() }), response: { 200: emptySchema } },
    },
    async (request) => {
      await unlinkIdentity(deps, authCallerOf(request).userId, request.params.identity_id);
      return {};
    },
  );

  routes.post(
    '/logout',
    {
      config: { access: 'session' },
      schema: { querystring: z.object({ scope: z.enum(['global', 'local', 'others']).default('global') }) },
    },
    async (request, reply) => {
      const caller = authCallerOf(request);
      await signOut(deps, caller, request.query.scope);
      return reply.status(204).send();
    },
  );

  routes.get(
    '/reauthenticate',
    { config: { access: 'session' }, schema: { response: { 200: emptySchema } } },
    async (request) => {
      await sendReauthenticationCode(deps, authCallerOf(request));
      return {};
    },
  );

  // Not in GoTrue, whose GET above e-mails a nonce for a password change only: the password (and a
  // TOTP code when the account has a factor) again, for every sensitive action (ADR 013).
  routes.post(
    '/reauthenticate',
    {
      config: { access: 'session' },
      schema: {
        body: z.object({
          password: z.string().min(1).max(maximumPasswordLength),
          code: z.string().max(64).optional(),
        }),
        response: { 200: sessionSchema },
      },
    },
    async (request) =>
      reauthenticateSession(
        deps,
        authCallerOf(request),
        { password: request.body.password, code: request.body.code },
        { ip: request.ip },
      ),
  );
}

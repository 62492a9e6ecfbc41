import {
  dealAuditTrailSchema,
  setStaffRolesSchema,
  staffUserListSchema,
  staffUserQuerySchema,
  staffUserSchema,
} from '@covenant/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recentAuthenticationCheck } from '../../api/enforce-api-access.js';
import { requireStaff } from '../../api/require-staff.js';
import { getDealAuditForStaff } from '../../deals/get-deal-audit.js';
import { findStaffUsers } from '../../staff/find-staff-users.js';
import { setUserRoles } from '../../staff/set-user-roles.js';
import { principalOf } from './principal-of.js';

const idParams = z.object({ id: z.uuid() });

/**
 * Under `/api/v1/staff`: admins find users and assign staff roles (`/users`); mediators, compliance
 * officers and admins read any deal's audit trail (`/deals/{id}/audit`). Every route checks role and
 * a second factor (aal2) in `onRequest`, before any input is looked at.
 */
export const staffUserRoutes: FastifyPluginAsync = async (app) => {
  const db = app.database.db;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const adminsOnly = async (request: FastifyRequest) => {
    requireStaff(request.principal, ['admin'], 'Role assignment');
  };

  routes.get(
    '/users',
    {
      config: { access: 'staff' },
      onRequest: adminsOnly,
      schema: {
        tags: ['Staff'],
        summary: 'Find users by part of their e-mail address or username, with their staff roles (admins)',
        querystring: staffUserQuerySchema,
        response: { 200: staffUserListSchema },
      },
    },
    async (request) => findStaffUsers(db, request.query),
  );

  routes.put(
    '/users/:id/roles',
    {
      config: { access: 'staff' },
      onRequest: adminsOnly,
      schema: {
        tags: ['Staff'],
        summary: 'Replace a user’s staff roles (admins); an admin cannot remove their own admin role',
        description:
          'The user’s next request carries the new roles (they are read per request) and so does their next ' +
          'access token. Removing your own admin role answers 409 CONFLICT; of two admins removing each other at once, the second is refused (403). A session ' +
          'that has not proved its user with a TOTP code within the reauthentication window answers 403 ' +
          'REAUTHENTICATION_NEEDED.',
        params: idParams,
        body: setStaffRolesSchema,
        response: { 200: staffUserSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      // A grant outlives the session that made it: a stolen staff session must prove its user again.
      (await recentAuthenticationCheck(app, principal))();
      const adminId = principal.userId;
      const change = await setUserRoles(
        { db, now: app.clock },
        adminId,
        request.params.id,
        request.body.roles,
      );
      request.log.info(
        { admin_id: adminId, user_id: change.user.id, granted: change.granted, revoked: change.revoked },
        'staff roles changed',
      );
      return change.user;
    },
  );

  routes.get(
    '/deals/:id/audit',
    {
      config: { access: 'staff' },
      onRequest: async (request) => {
        requireStaff(
          request.principal,
          ['mediator', 'compliance', 'admin'],
          'A deal’s audit trail for staff',
        );
      },
      schema: {
        tags: ['Staff'],
        summary: 'Read any deal’s hash-chained audit trail, verified afresh (mediators, compliance, admins)',
        params: idParams,
        response: { 200: dealAuditTrailSchema },
      },
    },
    async (request) => getDealAuditForStaff(db, request.params.id),
  );
};

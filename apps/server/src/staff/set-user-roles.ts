import { type Db, schema } from '@covenant/db';
import { AppError, type StaffRole, type StaffUser } from '@covenant/domain';
import { and, eq, inArray } from 'drizzle-orm';

export interface RoleChange {
  user: StaffUser;
  granted: StaffRole[];
  revoked: StaffRole[];
}

/**
 * Replaces a user's staff roles with `roles`, recording the admin who granted each new one, and each
 * grant and revocation in `staff_role_changes` (which keeps a revoked role's record). An admin
 * cannot take away their own admin role (409 CONFLICT), and the caller's admin role is checked again
 * with both users locked (403 once gone), so two admins removing each other at once leave one: the
 * console is never locked out. The user's next request already carries the new roles: they are read
 * per request.
 */
export async function setUserRoles(
  deps: { db: Db; now: () => Date },
  adminId: string,
  userId: string,
  roles: readonly StaffRole[],
): Promise<RoleChange> {
  if (userId === adminId && !roles.includes('admin')) {
    throw new AppError('CONFLICT', 'You cannot remove your own admin role; ask another admin');
  }
  return deps.db.transaction(async (tx) => {
    // Both users locked, in one order: two admins changing each other's roles at once are decided
    // one after the other, and the second finds what the first did.
    await tx
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(inArray(schema.users.id, [adminId, userId]))
      .orderBy(schema.users.id)
      .for('update');
    const callerRoles = await tx
      .select({ role: schema.userRoles.role })
      .from(schema.userRoles)
      .where(eq(schema.userRoles.userId, adminId));
    if (!callerRoles.some((row) => row.role === 'admin')) {
      throw new AppError('FORBIDDEN', 'Only admins may change staff roles');
    }
    const [user] = await tx
      .select({
        id: schema.users.id,
        email: schema.users.email,
        createdAt: schema.users.createdAt,
        username: schema.profiles.username,
      })
      .from(schema.users)
      .leftJoin(schema.profiles, eq(schema.profiles.id, schema.users.id))
      .where(eq(schema.users.id, userId));
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    const held = await tx
      .select({ role: schema.userRoles.role })
      .from(schema.userRoles)
      .where(eq(schema.userRoles.userId, userId));
    const current = held.map((row) => row.role);
    const granted = roles.filter((role) => !current.includes(role));
    const revoked = current.filter((role) => !roles.includes(role));
    if (revoked.length > 0) {
      await tx
        .delete(schema.userRoles)
        .where(and(eq(schema.userRoles.userId, userId), inArray(schema.userRoles.role, revoked)));
    }
    const now = deps.now();
    if (granted.length > 0) {
      await tx
        .insert(schema.userRoles)
        .values(granted.map((role) => ({ userId, role, grantedBy: adminId, createdAt: now })));
    }
    const changes = [
      ...granted.map((role) => ({ role, change: 'granted' as const })),
      ...revoked.map((role) => ({ role, change: 'revoked' as const })),
    ];
    if (changes.length > 0) {
      await tx
        .insert(schema.staffRoleChanges)
        .values(changes.map((change) => ({ ...change, userId, changedBy: adminId, createdAt: now })));
    }
    return {
      user: {
        id: user.id,
        email: user.email,
        username: user.username,
        roles: [...roles].sort(),
        created_at: user.createdAt.toISOString(),
      },
      granted,
      revoked,
    };
  });
}

import { type Db, schema } from '@covenant/db';
import { asc, eq } from 'drizzle-orm';

export type UserRow = typeof schema.users.$inferSelect;
export type FactorRow = typeof schema.mfaFactors.$inferSelect;
export type IdentityRow = typeof schema.identities.$inferSelect;

/** A user with what their tokens and GoTrue's user object need besides the row itself. */
export interface UserAccount {
  user: UserRow;
  factors: FactorRow[];
  roles: string[];
  /** Sign-in identities of other providers (Google), oldest first. */
  identities: IdentityRow[];
}

export async function loadUserAccount(db: Db, user: UserRow): Promise<UserAccount> {
  const [factors, roles, identities] = await Promise.all([
    db
      .select()
      .from(schema.mfaFactors)
      .where(eq(schema.mfaFactors.userId, user.id))
      .orderBy(asc(schema.mfaFactors.createdAt)),
    db
      .select({ role: schema.userRoles.role })
      .from(schema.userRoles)
      .where(eq(schema.userRoles.userId, user.id))
      .orderBy(asc(schema.userRoles.role)),
    db
      .select()
      .from(schema.identities)
      .where(eq(schema.identities.userId, user.id))
      .orderBy(asc(schema.identities.createdAt)),
  ]);
  return { user, factors, roles: roles.map((row) => row.role), identities };
}

export async function loadUserAccountById(db: Db, userId: string): Promise<UserAccount | undefined> {
  const [user] = await db.select().from(schema.users).where(eq(schema.users.id, userId));
  return user ? loadUserAccount(db, user) : undefined;
}

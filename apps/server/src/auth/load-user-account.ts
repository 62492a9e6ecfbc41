import { type Db, schema } from '@covenant/db';
import { asc, eq } from 'drizzle-orm';

export type UserRow = typeof schema.users.$inferSelect;
export type FactorRow = typeof schema.mfaFactors.$inferSelect;

/** A user with what their tokens and GoTrue's user object need besides the row itself. */
export interface UserAccount {
  user: UserRow;
  factors: FactorRow[];
  roles: string[];
}

export async function loadUserAccount(db: Db, user: UserRow): Promise<UserAccount> {
  const [factors, roles] = await Promise.all([
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
  ]);
  return { user, factors, roles: roles.map((row) => row.role) };
}

export async function loadUserAccountById(db: Db, userId: string): Promise<UserAccount | undefined> {
  const [user] = await db.select().from(schema.users).where(eq(schema.users.id, userId));
  return user ? loadUserAccount(db, user) : undefined;
}

import { type Db, oncePerDatabase, schema } from '@covenant/db';
import { asc, eq, type SQLWrapper, sql } from 'drizzle-orm';

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

/** The user's roles, and whether it has any factor or other identity: the summary's columns. */
function accountSummaryColumns(userId: SQLWrapper) {
  const { userRoles, mfaFactors, identities } = schema;
  return {
    roles: sql<
      schema.UserRole[]
    >`array(select ${userRoles.role} from ${userRoles} where ${userRoles.userId} = ${userId} order by 1)`,
    hasFactors: sql<boolean>`exists(select 1 from ${mfaFactors} where ${mfaFactors.userId} = ${userId})`,
    hasIdentities: sql<boolean>`exists(select 1 from ${identities} where ${identities.userId} = ${userId})`,
  };
}

/**
 * The user's account summary in one statement: most users have neither factors nor other
 * identities, so a sign-in reads its account in one round trip instead of three. Prepared once per
 * database.
 */
const accountSummaryQuery = oncePerDatabase((db) =>
  db
    .select(accountSummaryColumns(sql.placeholder('userId')))
    .from(sql`(select 1) as account`)
    .prepare('user_account_summary'),
);

interface AccountSummary {
  roles: schema.UserRole[];
  hasFactors: boolean;
  hasIdentities: boolean;
}

/**
 * The user whose e-mail address is `email` (in any case), with the same summary of their account, in
 * one statement: a password sign-in reads the user and their account in one round trip instead of
 * two. Prepared once per database.
 */
const userAccountByEmailQuery = oncePerDatabase((db) => {
  const { users } = schema;
  // Written out with its table: drizzle writes a one-table selection's columns without theirs, and a
  // bare "id" in the summary's subqueries would be the factor's or the identity's own.
  const userId = sql`${users}.${sql.identifier(users.id.name)}`;
  return db
    .select({ user: users, ...accountSummaryColumns(userId) })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${sql.placeholder('email')})`)
    .prepare('user_account_by_email');
});

/**
 * The user with this e-mail address (as `findUserByEmail` finds them), and a function that completes
 * their account as `loadUserAccount` does, reading factors and identities only when there are some.
 */
export async function findUserAccountByEmail(
  db: Db,
  email: string,
): Promise<{ user: UserRow; account: () => Promise<UserAccount> } | undefined> {
  const [found] = await userAccountByEmailQuery(db).execute({ email });
  if (!found) return undefined;
  const { user, ...summary } = found;
  return { user, account: () => completeAccount(db, user, summary) };
}

export async function loadUserAccount(db: Db, user: UserRow): Promise<UserAccount> {
  const [summary] = await accountSummaryQuery(db).execute({ userId: user.id });
  if (!summary) throw new Error('the account summary query answered no row');
  return completeAccount(db, user, summary);
}

async function completeAccount(db: Db, user: UserRow, summary: AccountSummary): Promise<UserAccount> {
  const [factors, identities] = await Promise.all([
    summary.hasFactors
      ? db
          .select()
          .from(schema.mfaFactors)
          .where(eq(schema.mfaFactors.userId, user.id))
          .orderBy(asc(schema.mfaFactors.createdAt))
      : [],
    summary.hasIdentities
      ? db
          .select()
          .from(schema.identities)
          .where(eq(schema.identities.userId, user.id))
          .orderBy(asc(schema.identities.createdAt))
      : [],
  ]);
  return { user, factors, roles: summary.roles, identities };
}

export async function loadUserAccountById(db: Db, userId: string): Promise<UserAccount | undefined> {
  const [user] = await db.select().from(schema.users).where(eq(schema.users.id, userId));
  return user ? loadUserAccount(db, user) : undefined;
}

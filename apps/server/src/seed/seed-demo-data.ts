import { type Db, schema } from '@covenant/db';
import { and, eq, inArray } from 'drizzle-orm';
import { hashPassword } from '../auth/hash-password.js';
import { openTotpSecret } from '../auth/totp-secrets.js';

export const demoPassword = 'covenant-demo';

/**
 * The TOTP secret (base32) of the demo staff accounts' verified second factor: published on purpose,
 * like the demo password, so staff pages can be tried locally with any authenticator app.
 */
export const demoStaffTotpSecret = 'COVENANTDEMOTOTPSECRETFORSTAFFAA';

export interface DemoAccount {
  email: string;
  password: string;
  description: string;
  /** Base32 TOTP secret of the account's verified factor (staff accounts only). */
  totpSecret: string | null;
}

interface DemoAccountSpec extends Omit<DemoAccount, 'password' | 'totpSecret'> {
  username: string;
  firstName: string;
  lastName: string;
  profile: Pick<typeof schema.profiles.$inferInsert, 'verificationStatus' | 'tradingTier' | 'kycCompleted'>;
  roles: schema.UserRole[];
  /** The trader's approved KYC record, what the Travel Rule sends for it (deals of $1,000 or more). */
  kyc?: Pick<
    typeof schema.kycSubmissions.$inferInsert,
    | 'subjectType'
    | 'legalName'
    | 'country'
    | 'address'
    | 'townName'
    | 'dateOfBirth'
    | 'placeOfBirthCity'
    | 'placeOfBirthCountry'
    | 'registrationNumber'
    | 'registrationAuthority'
  >;
}

const traderProfile = {
  verificationStatus: 'verified',
  tradingTier: 'enhanced',
  kycCompleted: true,
} as const;
// Staff accounts do not trade: unverified profiles keep them off the partner list.
const staffProfile = { verificationStatus: 'unverified', tradingTier: 'basic', kycCompleted: false } as const;

const demoAccounts: DemoAccountSpec[] = [
  {
    email: 'buyer@demo.covenant.test',
    description: 'trader: verified, KYC complete, Enhanced tier',
    username: 'demo_buyer',
    firstName: 'Bea',
    lastName: 'Buyer',
    profile: traderProfile,
    roles: [],
    kyc: {
      subjectType: 'individual',
      legalName: 'Bea Buyer',
      country: 'DE',
      address: 'Friedrichstrasse 43\n10117 Berlin',
      townName: 'Berlin',
      dateOfBirth: '1984-05-17',
      placeOfBirthCity: 'Hamburg',
      placeOfBirthCountry: 'DE',
    },
  },
  {
    email: 'seller@demo.covenant.test',
    description: 'trader: verified, KYC complete, Enhanced tier',
    username: 'demo_seller',
    firstName: 'Sol',
    lastName: 'Seller',
    profile: traderProfile,
    roles: [],
    kyc: {
      subjectType: 'company',
      legalName: 'Sol Seller Trading AG',
      country: 'CH',
      address: 'Bahnhofstrasse 10\n8001 Zurich',
      townName: 'Zurich',
      registrationNumber: 'CHE-123.456.789',
      registrationAuthority: 'RA000548',
    },
  },
  {
    email: 'unverified@demo.covenant.test',
    description: 'trader: verification pending, no KYC, Basic tier',
    username: 'demo_unverified',
    firstName: 'Uma',
    lastName: 'Unverified',
    profile: staffProfile,
    roles: [],
  },
  {
    email: 'mediator@demo.covenant.test',
    description: 'mediator: decides disputes',
    username: 'demo_mediator',
    firstName: 'Max',
    lastName: 'Mediator',
    profile: staffProfile,
    roles: ['mediator'],
  },
  {
    email: 'admin@demo.covenant.test',
    description: 'admin and compliance officer',
    username: 'demo_admin',
    firstName: 'Ada',
    lastName: 'Admin',
    profile: staffProfile,
    roles: ['admin', 'compliance'],
  },
  {
    email: 'concierge@demo.covenant.test',
    description: 'concierge: quotes and books travel for meetings',
    username: 'demo_concierge',
    firstName: 'Cleo',
    lastName: 'Concierge',
    profile: staffProfile,
    roles: ['concierge'],
  },
];

/**
 * Creates the demo accounts (confirmed, with profiles, roles and the traders' approved KYC records), all with the password
 * `covenant-demo`; staff accounts also get a verified TOTP factor with `demoStaffTotpSecret`, written
 * in clear: the start seals it with the other clear secrets (`sealClearTotpSecrets`). Accounts that
 * exist already are left as they are, so it can run on every start.
 * Returns every demo account, for printing.
 */
export async function seedDemoData(db: Db, clock: () => Date = () => new Date()): Promise<DemoAccount[]> {
  for (const account of demoAccounts) {
    const now = clock();
    const passwordHash = await hashPassword(demoPassword);
    await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(schema.users)
        .values({
          email: account.email,
          passwordHash,
          emailConfirmedAt: now,
          userMetadata: {
            first_name: account.firstName,
            last_name: account.lastName,
            username: account.username,
          },
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: schema.users.id });
      if (!user) return;
      await tx
        .insert(schema.profiles)
        .values({ id: user.id, username: account.username, ...account.profile });
      if (account.kyc) {
        await tx.insert(schema.kycSubmissions).values({
          userId: user.id,
          status: 'approved',
          ...account.kyc,
          requestedTier: account.profile.tradingTier ?? 'basic',
          approvedTier: account.profile.tradingTier ?? 'basic',
          limitUsd: account.profile.tradingTier === 'enhanced' ? '100000' : '10000',
          submittedAt: now,
          reviewedAt: now,
        });
      }
      if (account.roles.length > 0) {
        await tx.insert(schema.userRoles).values(account.roles.map((role) => ({ userId: user.id, role })));
        // Staff pages need an aal2 session, so demo staff come with a verified authenticator.
        await tx.insert(schema.mfaFactors).values({
          userId: user.id,
          friendlyName: 'Demo authenticator',
          factorType: 'totp',
          status: 'verified',
          secret: demoStaffTotpSecret,
          createdAt: now,
          updatedAt: now,
        });
      }
    });
  }
  return demoAccounts.map(presentDemoAccount);
}

/**
 * The demo accounts present in the database (a restart prints them again), with the demo TOTP secret
 * where that factor exists. Factor secrets are sealed (ADR 018), so each is opened and compared here.
 */
export async function findDemoAccounts(db: Db, fileMasterKey: Buffer): Promise<DemoAccount[]> {
  const rows = await db
    .select({ email: schema.users.email, factorId: schema.mfaFactors.id, secret: schema.mfaFactors.secret })
    .from(schema.users)
    .leftJoin(
      schema.mfaFactors,
      and(eq(schema.mfaFactors.userId, schema.users.id), eq(schema.mfaFactors.status, 'verified')),
    )
    .where(
      inArray(
        schema.users.email,
        demoAccounts.map((account) => account.email),
      ),
    );
  const holdsDemoSecret = (factor: { id: string; secret: string }) => {
    try {
      return openTotpSecret(fileMasterKey, factor) === demoStaffTotpSecret;
    } catch {
      // Sealed under another master key: not the seed's factor as far as this server can tell.
      return false;
    }
  };
  const withFactor = new Set(
    rows
      .filter((row) => row.factorId !== null && row.secret !== null)
      .filter((row) => holdsDemoSecret({ id: row.factorId!, secret: row.secret! }))
      .map((row) => row.email),
  );
  const present = new Set(rows.map((row) => row.email));
  return demoAccounts
    .filter((account) => present.has(account.email))
    .map((account) => ({
      ...presentDemoAccount(account),
      totpSecret: withFactor.has(account.email) ? demoStaffTotpSecret : null,
    }));
}

function presentDemoAccount({ email, description, roles }: DemoAccountSpec): DemoAccount {
  return {
    email,
    password: demoPassword,
    description,
    totpSecret: roles.length > 0 ? demoStaffTotpSecret : null,
  };
}

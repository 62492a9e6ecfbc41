import type { Db } from '@covenant/db';
import type { FastifyBaseLogger } from 'fastify';

export interface MeetingDeps {
  db: Db;
  now: () => Date;
  logger: FastifyBaseLogger;
  /** The file master key: seals check-in positions (ADR 018). */
  masterKey: Buffer;
  /** The HMAC key of the rotating check-in codes (`meetingCodeKey`). */
  codeKey: Buffer;
  radiusMeters: number;
  /** Told when a meeting stops holding settlement back (both checked in, or both waived). */
  settlementUnblocked: () => void;
}

import {
  AppError,
  meetingCheckInBodySchema,
  meetingCheckInSchema,
  meetingCodeSchema,
  meetingViewSchema,
  meetingWithTravelSchema,
} from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acceptMeetingChange, proposeMeetingChange } from '../../meetings/change-meeting.js';
import { checkInAtMeeting } from '../../meetings/check-in-at-meeting.js';
import { getMeeting, getMeetingCode } from '../../meetings/get-meeting.js';
import { meetingCodeKey } from '../../meetings/meeting-codes.js';
import type { MeetingDeps } from '../../meetings/meeting-deps.js';
import { waiveMeeting } from '../../meetings/waive-meeting.js';
import { meetingInputSchema } from './deal-schemas.js';
import { principalOf } from './principal-of.js';

const dealIdParams = z.object({ id: z.uuid() });
/** Check-in attempts per party and deal per hour: plenty for a meeting, nothing for guessing codes. */
const checkInAttemptsPerHour = 30;

/**
 * A deal's in-person meeting under `/deals/{id}/meeting`, for its parties (anybody else: 404): the
 * meeting and its check-ins, the caller's rotating check-in code, check-in with the other party's
 * code (and, with consent, the phone's position), and the waiver. Settlement of a deal whose terms
 * require a meeting waits until both parties checked in or both waived.
 */
export const meetingRoutes: FastifyPluginAsync = async (app) => {
  const deps: MeetingDeps = {
    db: app.database.db,
    now: app.clock,
    logger: app.log,
    masterKey: app.fileMasterKey,
    codeKey: meetingCodeKey(app.fileMasterKey),
    radiusMeters: app.config.meetings.radiusMeters,
    settlementUnblocked: () => app.escrow.tickInBackground(),
  };
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/deals/:id/meeting',
    {
      // The parties' check-in positions are personal data: a signed-in session only, never an API key.
      config: { access: 'session' },
      schema: {
        tags: ['Meetings'],
        summary: 'The deal’s meeting: details, status, check-ins (with positions), waivers and travel',
        params: dealIdParams,
        response: { 200: meetingWithTravelSchema },
      },
    },
    async (request) => getMeeting(deps, principalOf(request).userId, request.params.id),
  );

  routes.get(
    '/deals/:id/meeting/qr',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Meetings'],
        summary: 'Your own check-in code for the other party to scan or type (changes every 60 seconds)',
        description:
          'Only while check-in is open (escrow funded, inside the meeting window); otherwise 409 MEETING_NOT_OPEN. ' +
          'A code is accepted until a minute after `expires_at`, and once.',
        params: dealIdParams,
        response: { 200: meetingCodeSchema },
      },
    },
    async (request) => getMeetingCode(deps, principalOf(request).userId, request.params.id),
  );

  routes.post(
    '/deals/:id/meeting/check-in',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Meetings'],
        summary:
          'Check in at the meeting with the other party’s current code (and, with consent, your position)',
        description:
          'Refusals: 409 MEETING_NOT_OPEN, 422 MEETING_CODE_INVALID (not the counterparty’s code for this deal), ' +
          'MEETING_CODE_EXPIRED, MEETING_CODE_USED, MEETING_CODE_OWN, 409 ALREADY_CHECKED_IN. A position outside the ' +
          'meeting’s radius, or none, is recorded and flagged for the mediators.',
        params: dealIdParams,
        body: meetingCheckInBodySchema,
        response: { 201: meetingCheckInSchema },
      },
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      const decision = await app.rateLimiter.consume(
        `meeting-check-in:${userId}:${request.params.id}`,
        checkInAttemptsPerHour,
        3600,
      );
      if (!decision.allowed) {
        reply.header('retry-after', String(decision.retryAfterSeconds));
        throw new AppError('RATE_LIMITED', 'Too many check-in attempts on this deal. Try again later.');
      }
      return reply.code(201).send(await checkInAtMeeting(deps, userId, request.params.id, request.body));
    },
  );

  routes.post(
    '/deals/:id/meeting/change',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Meetings'],
        summary: 'Propose a change of the meeting after funding; it applies once the other party accepts it',
        description:
          'Only while the escrow is funded (before, change the meeting with new terms). A new proposal replaces a pending one.',
        params: dealIdParams,
        body: z.object({ meeting: meetingInputSchema }),
        response: { 200: meetingViewSchema },
      },
    },
    async (request) =>
      proposeMeetingChange(deps, principalOf(request).userId, request.params.id, request.body.meeting),
  );

  routes.post(
    '/deals/:id/meeting/change/accept',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Meetings'],
        summary: 'Accept the other party’s proposed change of the meeting',
        params: dealIdParams,
        response: { 200: meetingViewSchema },
      },
    },
    async (request) => acceptMeetingChange(deps, principalOf(request).userId, request.params.id),
  );

  routes.post(
    '/deals/:id/meeting/waive',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Meetings'],
        summary: 'Waive the meeting; settlement stops waiting for check-in once both parties have',
        params: dealIdParams,
        response: { 200: meetingViewSchema },
      },
    },
    async (request) => waiveMeeting(deps, principalOf(request).userId, request.params.id),
  );
};

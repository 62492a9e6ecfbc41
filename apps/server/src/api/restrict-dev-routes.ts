import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import ipaddr from 'ipaddr.js';
import { createAuthDeps } from '../auth/create-auth-deps.js';
import { authenticatePrincipal } from './authenticate-principal.js';
import { requireStaff } from './require-staff.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A dev-only route (the mailbox, devnet funding): see restrictDevRoutes. */
    devOnly?: boolean;
  }
}

/** Headers a proxy adds; a request carrying one came through a proxy, whoever the socket's peer is. */
const forwardingHeaders = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'via'];

/**
 * A request from this machine: its socket's peer is a loopback address and no proxy forwarded it.
 * The socket is judged, never X-Forwarded-For (TRUST_PROXY or not): behind a proxy on this machine
 * every request arrives from loopback, so a forwarded one counts as coming from elsewhere.
 */
export function isLocalRequest(request: FastifyRequest): boolean {
  const peer = request.raw.socket.remoteAddress ?? '';
  if (isIP(peer) === 0 || ipaddr.process(peer).range() !== 'loopback') return false;
  return forwardingHeaders.every((name) => request.headers[name] === undefined);
}

/**
 * An onRequest hook for the routes marked `config: { devOnly: true }`: they answer requests from
 * this machine, and elsewhere only an admin whose session passed a second factor (aal2). Anyone else
 * gets the not-found answer of an unknown path, so the route's existence is not revealed; the hook
 * runs before authentication, so neither is a 401.
 */
export function restrictDevRoutes(app: FastifyInstance) {
  const deps = createAuthDeps(app);
  // Synchronous for every other route (nearly all requests): only a dev route's caller is looked up.
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (!request.routeOptions.config.devOnly || isLocalRequest(request)) {
      done();
      return;
    }
    authenticatePrincipal(deps, request.headers.authorization)
      .then((principal) => requireStaff(principal, ['admin'], 'Dev tools'))
      .then(
        () => done(),
        // The answer is the unknown path's; the route itself never runs.
        () => reply.callNotFound(),
      );
  };
}

/**
 * An auth failure in GoTrue's vocabulary: the HTTP status, GoTrue's `error_code` (which
 * `@supabase/auth-js` exposes as `error.code`) and the message it shows. `extra` carries fields some
 * codes add to the body, such as `weak_password: {reasons}`.
 */
export class AuthError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown> | undefined;
  /** Seconds until a rate-limited caller may try again (sent as Retry-After). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { extra?: Record<string, unknown>; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AuthError';
    this.status = status;
    this.code = code;
    this.extra = options.extra;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isAuthError(error: unknown): error is AuthError {
  return error instanceof AuthError;
}

export const invalidCredentials = () =>
  new AuthError(400, 'invalid_credentials', 'Invalid login credentials');

export const noAuthorization = () =>
  new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');

export const sessionNotFound = () =>
  new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');

export const validationFailed = (message: string) => new AuthError(400, 'validation_failed', message);

export const otpExpired = () => new AuthError(403, 'otp_expired', 'Token has expired or is invalid');

export const userAlreadyExists = () => new AuthError(422, 'user_already_exists', 'User already registered');

export const usernameTaken = () => new AuthError(422, 'username_taken', 'Username is already taken');

import { useMemo } from 'react';
import { useAuth } from '@/lib/auth.js';
import { type RequestReauthentication, useRequestReauthentication } from '@/lib/reauthentication.js';

// An error answered by /api/v1, in the API's own shape: {"error": {code, message, details, timestamp}}.
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | null;

  constructor(status: number, code: string, message: string, details: Record<string, unknown> | null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

type RequestOptions = {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  // Sent on POSTs so a retried request (a double click, a flaky network) is carried out once.
  idempotencyKey?: string;
  // 'blob' for endpoints that answer a file rather than JSON.
  as?: 'json' | 'blob';
};

export type ApiClient = {
  get<T>(path: string, options?: Omit<RequestOptions, 'body' | 'idempotencyKey'>): Promise<T>;
  post<T>(path: string, options?: RequestOptions): Promise<T>;
  put<T>(path: string, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, options?: RequestOptions): Promise<T>;
  delete(path: string): Promise<void>;
};

// A client for the public API on the same origin, with the caller's access token as the Bearer. With
// `requestReauthentication`, an action the server refuses as REAUTHENTICATION_NEEDED (a sensitive one
// from a session signed in too long ago) is retried once the user has confirmed their password.
export function createApiClient(
  accessToken: string | undefined,
  requestReauthentication?: RequestReauthentication | null,
): ApiClient {
  const request = async <T>(method: string, path: string, options: RequestOptions = {}): Promise<T> => {
    try {
      return await send<T>(accessToken, method, path, options);
    } catch (error) {
      if (
        !(error instanceof ApiError) ||
        error.code !== 'REAUTHENTICATION_NEEDED' ||
        !requestReauthentication
      ) {
        throw error;
      }
      const renewed = await requestReauthentication();
      if (!renewed) throw error;
      return send<T>(renewed, method, path, options);
    }
  };
  return {
    get: (path, options) => request('GET', path, options),
    post: (path, options) => request('POST', path, options),
    put: (path, options) => request('PUT', path, options),
    patch: (path, options) => request('PATCH', path, options),
    delete: (path) => request('DELETE', path),
  };
}

async function send<T>(
  accessToken: string | undefined,
  method: string,
  path: string,
  options: RequestOptions,
): Promise<T> {
  const url = new URL(`/api/v1${path}`, window.location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
  }
  const headers = new Headers({ Accept: 'application/json' });
  if (accessToken) headers.set('Authorization', `Bearer ${accessToken}`);
  if (options.idempotencyKey) headers.set('Idempotency-Key', options.idempotencyKey);
  // A FormData body (file uploads) is sent as multipart/form-data with the boundary fetch chooses.
  const isForm = options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers.set('Content-Type', 'application/json');
  const response = await fetch(url, {
    method,
    headers,
    body:
      options.body === undefined
        ? undefined
        : isForm
          ? (options.body as FormData)
          : JSON.stringify(options.body),
  });
  if (!response.ok) throw await readApiError(response);
  if (response.status === 204) return undefined as T;
  if (options.as === 'blob') return (await response.blob()) as T;
  return (await response.json()) as T;
}

// The client for the signed-in user; it follows the session as the auth client refreshes it.
export function useApiClient(): ApiClient {
  const { session } = useAuth();
  const requestReauthentication = useRequestReauthentication();
  const accessToken = session?.access_token;
  return useMemo(
    () => createApiClient(accessToken, requestReauthentication),
    [accessToken, requestReauthentication],
  );
}

async function readApiError(response: Response): Promise<ApiError> {
  const fallback = new ApiError(
    response.status,
    'INTERNAL_ERROR',
    response.statusText || 'Request failed',
    null,
  );
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    // A proxy's HTML error page or an empty body: only the status is known.
    return fallback;
  }
  const error = (body as { error?: unknown } | null)?.error;
  if (!error || typeof error !== 'object') return fallback;
  const { code, message, details } = error as Record<string, unknown>;
  return new ApiError(
    response.status,
    typeof code === 'string' ? code : fallback.code,
    typeof message === 'string' ? message : fallback.message,
    details && typeof details === 'object' ? (details as Record<string, unknown>) : null,
  );
}

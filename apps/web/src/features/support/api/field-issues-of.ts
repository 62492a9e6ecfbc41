import { ApiError } from '@/lib/api-client.js';

/** The fields the server refused in a VALIDATION_FAILED answer (`/first_name` → `first_name`). */
export function fieldIssuesOf(error: Error): { field: string; message: string }[] {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_FAILED') return [];
  const issues = error.details?.issues;
  if (!Array.isArray(issues)) return [];
  return issues.flatMap((issue: { path?: unknown; message?: unknown }) =>
    typeof issue.path === 'string' && typeof issue.message === 'string'
      ? [{ field: issue.path.replace(/^\//, '').split('/')[0] ?? '', message: issue.message }]
      : [],
  );
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';

const operationSchema = z.object({
  tags: z.array(z.string()).optional(),
  summary: z.string().optional(),
  description: z.string().optional(),
  security: z.array(z.record(z.string(), z.unknown())).optional(),
  deprecated: z.boolean().optional(),
});

// Only the parts of OpenAPI 3 the reference page shows; anything else in the document is ignored.
export const openApiDocumentSchema = z.object({
  info: z.object({ title: z.string().optional(), version: z.string().optional() }).optional(),
  servers: z.array(z.object({ url: z.string() })).optional(),
  security: z.array(z.record(z.string(), z.unknown())).optional(),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});

export type OpenApiDocument = z.infer<typeof openApiDocumentSchema>;
export type OpenApiOperation = z.infer<typeof operationSchema>;

export function parseOperation(value: unknown): OpenApiOperation | null {
  const parsed = operationSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export const openApiDocumentPath = '/api/v1/openapi.json';

/** The server's live OpenAPI document, or null while the server does not publish one. */
export async function getOpenApiDocument(): Promise<OpenApiDocument | null> {
  const response = await fetch(openApiDocumentPath, { headers: { Accept: 'application/json' } });
  if (!response.ok) return null;
  const parsed = openApiDocumentSchema.safeParse(await response.json().catch(() => null));
  return parsed.success ? parsed.data : null;
}

export const openApiDocumentQueryOptions = () =>
  queryOptions({ queryKey: ['openapi-document'], queryFn: getOpenApiDocument, retry: false });

export function useOpenApiDocument() {
  return useQuery(openApiDocumentQueryOptions());
}

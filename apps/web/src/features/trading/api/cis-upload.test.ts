import type { CisForm } from '@covenant/domain';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '@/lib/api-client.js';
import { uploadCisSheet } from './cis-upload.js';

const form: CisForm = {
  legal_name: 'Ada Lovelace',
  entity_type: 'individual',
  jurisdiction: 'GB',
  source_of_funds: 'Royalties',
  assets: ['BTC', 'USDC'],
  size_min_usd: 50_000,
  size_max_usd: 250_000,
  preferred_chains: ['BTC', 'ETH'],
  settlement_window_hours: 48,
};

// Records what the fetcher hands the API client.
function recordingClient() {
  const posts: { path: string; body: unknown; idempotencyKey: string | undefined }[] = [];
  const api = {
    post: async (path: string, options?: { body?: unknown; idempotencyKey?: string }) => {
      posts.push({ path, body: options?.body, idempotencyKey: options?.idempotencyKey });
      return { id: 'cis-1' };
    },
  } as unknown as ApiClient;
  return { api, posts };
}

describe('uploadCisSheet', () => {
  it('sends the form as JSON without a PDF', async () => {
    const { api, posts } = recordingClient();
    await uploadCisSheet(api, {
      form,
      pdf: null,
    });
    expect(posts[0]).toMatchObject({ path: '/cis', body: form, idempotencyKey: expect.any(String) });
  });

  it('sends multipart with list fields repeated, numbers as digits and the signed PDF as file', async () => {
    const { api, posts } = recordingClient();
    const pdf = new File(['%PDF-1.7'], 'signed.pdf', { type: 'application/pdf' });
    await uploadCisSheet(api, {
      form,
      pdf,
    });
    const body = posts[0]?.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get('legal_name')).toBe('Ada Lovelace');
    expect(body.getAll('assets')).toEqual(['BTC', 'USDC']);
    expect(body.getAll('preferred_chains')).toEqual(['BTC', 'ETH']);
    expect(body.get('size_min_usd')).toBe('50000');
    expect(body.get('size_max_usd')).toBe('250000');
    expect(body.get('settlement_window_hours')).toBe('48');
    expect((body.get('file') as File).name).toBe('signed.pdf');
    expect(body.has('pdf')).toBe(false);
  });
});

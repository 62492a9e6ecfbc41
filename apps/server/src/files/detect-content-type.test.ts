import { describe, expect, it } from 'vitest';
import { detectContentType } from './detect-content-type.js';

describe('detectContentType', () => {
  it('recognises PDF, PNG and JPEG by their first bytes', () => {
    expect(detectContentType(Buffer.from('%PDF-1.7\n...'))).toBe('application/pdf');
    expect(detectContentType(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'))).toBe('image/png');
    expect(detectContentType(Buffer.from('ffd8ffe000104a464946', 'hex'))).toBe('image/jpeg');
  });

  it('refuses anything else, however it is named', () => {
    expect(detectContentType(Buffer.from('GIF89a'))).toBeNull();
    expect(detectContentType(Buffer.from('<html><body>%PDF-</body></html>'))).toBeNull();
    expect(detectContentType(Buffer.from('%PDF'))).toBeNull();
    expect(detectContentType(Buffer.from('89504e47', 'hex'))).toBeNull();
    expect(detectContentType(Buffer.alloc(0))).toBeNull();
  });
});

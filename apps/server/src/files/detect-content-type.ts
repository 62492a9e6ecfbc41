export type DocumentContentType = 'application/pdf' | 'image/png' | 'image/jpeg';

const signatures: { type: DocumentContentType; bytes: number[] }[] = [
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
];

/**
 * The type of a document judged by its first bytes, never by the name or the type the client
 * claimed; null when it is none of PDF, PNG or JPEG.
 */
export function detectContentType(content: Uint8Array): DocumentContentType | null {
  const match = signatures.find(({ bytes }) => bytes.every((byte, index) => content[index] === byte));
  return match?.type ?? null;
}

import { AppError, chatAttachmentBodySchema } from '@covenant/domain';
import type { FastifyRequest } from 'fastify';
import { type FileUpload, readUploadForm } from '../files/read-upload-form.js';
import { chatAttachmentForm } from './chat-attachments.js';

/**
 * Reads a chat message with a file: multipart/form-data with one file named `file` (at most 10 MB)
 * and an optional `body`, the text that goes with it, checked by the shared schema.
 */
export async function readChatAttachmentForm(
  request: FastifyRequest,
): Promise<{ body: string; attachment: FileUpload }> {
  if (!request.isMultipart()) {
    throw new AppError('VALIDATION_FAILED', 'Send the file as multipart/form-data');
  }
  const { fields, uploads } = await readUploadForm(request, chatAttachmentForm);
  const [attachment] = uploads;
  if (!attachment) {
    throw new AppError('VALIDATION_FAILED', 'Attach a file', {
      issues: [{ path: '/file', message: 'Attach a PDF, PNG or JPEG file in the file field' }],
    });
  }
  const parsed = chatAttachmentBodySchema.safeParse(fields);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: `/${issue.path.join('/')}`,
      message: issue.message,
    }));
    throw new AppError('VALIDATION_FAILED', 'The message is not valid', { in: 'body', issues });
  }
  return { body: parsed.data.body, attachment };
}

import { ApiError } from '@/lib/api-client.js';

/** The toast for a message or ticket that was not sent; what the visitor typed stays in the form. */
export function describeSendFailure(error: Error): { title: string; description: string } {
  if (!(error instanceof ApiError)) {
    return {
      title: 'Not sent',
      description: 'We could not reach Covenant. Check your connection and try again; your text is kept.',
    };
  }
  if (error.code === 'RATE_LIMITED') {
    return { title: 'Too many messages', description: `${error.message} Your text is kept.` };
  }
  if (error.code === 'VALIDATION_FAILED') {
    return { title: 'Not sent', description: 'Please correct the highlighted fields and send again.' };
  }
  return {
    title: 'Not sent',
    description: `${error.message}. Please try again in a moment; your text is kept.`,
  };
}

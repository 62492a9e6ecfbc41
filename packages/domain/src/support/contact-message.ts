import { z } from 'zod';
import { multiLineText, singleLineText } from '../text/text-rules.js';
import { replyAddressSchema } from './reply-address.js';
import { supportPriorities } from './support-priority.js';

/** The contact form's topics (spec §3), in the order the subject select lists them. */
export const contactTopics = [
  'account',
  'trading',
  'escrow',
  'technical',
  'billing',
  'security',
  'partnership',
  'other',
] as const;
export type ContactTopic = (typeof contactTopics)[number];

export const contactTopicLabels: Record<ContactTopic, string> = {
  account: 'Account & Verification',
  trading: 'Trading',
  escrow: 'Escrow',
  technical: 'Technical Support',
  billing: 'Billing & Fees',
  security: 'Security',
  partnership: 'Partnership',
  other: 'Other',
};

// Digits with the usual separators and an optional leading +; 7 to 15 digits as E.164 allows.
const phonePattern = /^\+?[\d\s().-]{7,24}$/;

/**
 * The contact form (spec §3), checked the same way in the browser and by the server. Field names are
 * the API's (`POST /api/v1/support/contact`), so the form sends its values as they are.
 */
export const contactMessageSchema = z.object({
  first_name: singleLineText().min(1, 'Enter your first name').max(100, 'Use at most 100 characters'),
  last_name: singleLineText().min(1, 'Enter your last name').max(100, 'Use at most 100 characters'),
  email: replyAddressSchema,
  phone: z
    .string()
    .trim()
    .refine(
      (phone) =>
        phone === '' ||
        (phonePattern.test(phone) &&
          phone.replace(/\D/g, '').length >= 7 &&
          phone.replace(/\D/g, '').length <= 15),
      'Enter a phone number with 7 to 15 digits, or leave it empty',
    )
    .optional(),
  subject: z.enum(contactTopics, 'Choose a subject'),
  priority: z.enum(supportPriorities, 'Choose a priority'),
  message: multiLineText()
    .min(20, 'Tell us a little more (at least 20 characters)')
    .max(5000, 'Use at most 5,000 characters'),
  // A boolean rather than `literal(true)`, so the form can start unticked.
  consent: z.boolean().refine((given) => given, 'Please agree to the Privacy Policy so we can answer you'),
});

/** What the visitor types (before trimming and defaults). */
export type ContactMessageInput = z.input<typeof contactMessageSchema>;
/** What the server stores. */
export type ContactMessage = z.output<typeof contactMessageSchema>;

import { z } from 'zod';
import { multiLineText, singleLineText } from '../text/text-rules.js';
import { replyAddressSchema } from './reply-address.js';

/** The ticket form's categories (spec §2, Help Center), in the order the select lists them. */
export const ticketCategories = [
  'technical_issue',
  'account_problem',
  'trading_question',
  'billing_inquiry',
  'feature_request',
] as const;
export type TicketCategory = (typeof ticketCategories)[number];

export const ticketCategoryLabels: Record<TicketCategory, string> = {
  technical_issue: 'Technical Issue',
  account_problem: 'Account Problem',
  trading_question: 'Trading Question',
  billing_inquiry: 'Billing Inquiry',
  feature_request: 'Feature Request',
};

/**
 * The Help Center's support ticket (subject, category, description), plus the address we answer to:
 * prefilled for a signed-in user, typed by a visitor. Shared by the form and
 * `POST /api/v1/support/tickets`.
 */
export const supportTicketSchema = z.object({
  email: replyAddressSchema,
  subject: singleLineText()
    .min(5, 'Enter a subject (at least 5 characters)')
    .max(200, 'Use at most 200 characters'),
  category: z.enum(ticketCategories, 'Choose a category'),
  description: multiLineText()
    .min(20, 'Describe the problem (at least 20 characters)')
    .max(5000, 'Use at most 5,000 characters'),
});

export type SupportTicketInput = z.input<typeof supportTicketSchema>;
export type SupportTicket = z.output<typeof supportTicketSchema>;

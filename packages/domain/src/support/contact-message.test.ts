import { describe, expect, it } from 'vitest';
import { contactMessageSchema } from './contact-message.js';
import { describeResponseTarget } from './support-priority.js';
import { supportTicketSchema } from './support-ticket.js';

const goodContact = {
  first_name: ' Ada ',
  last_name: 'Lovelace',
  email: 'Ada@Example.COM',
  phone: '',
  subject: 'escrow',
  priority: 'high',
  message: 'How long does a Bitcoin deposit take to confirm?',
  consent: true,
};

function issuesOf(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) {
  return (result.error?.issues ?? []).map((issue) => issue.path.join('.'));
}

describe('contactMessageSchema', () => {
  it('trims names and lower-cases the address', () => {
    const parsed = contactMessageSchema.parse(goodContact);
    expect(parsed.first_name).toBe('Ada');
    expect(parsed.email).toBe('ada@example.com');
  });

  it('names every field that is wrong', () => {
    const result = contactMessageSchema.safeParse({
      first_name: ' ',
      last_name: '',
      email: 'not-an-address',
      phone: '12',
      subject: 'lunch',
      priority: 'asap',
      message: 'short',
      consent: false,
    });
    expect(issuesOf(result).sort()).toEqual(
      ['consent', 'email', 'first_name', 'last_name', 'message', 'phone', 'priority', 'subject'].sort(),
    );
  });

  it('accepts an international phone number and no phone at all', () => {
    expect(contactMessageSchema.safeParse({ ...goodContact, phone: '+44 20 7946 0958' }).success).toBe(true);
    const { phone: _, ...withoutPhone } = goodContact;
    expect(contactMessageSchema.safeParse(withoutPhone).success).toBe(true);
  });
});

describe('supportTicketSchema', () => {
  it('accepts the five categories only', () => {
    const ticket = {
      email: 'a@b.co',
      subject: 'Cannot connect',
      category: 'technical_issue',
      description: 'The wallet page spins forever after I connect.',
    };
    expect(supportTicketSchema.safeParse(ticket).success).toBe(true);
    expect(issuesOf(supportTicketSchema.safeParse({ ...ticket, category: 'general' }))).toEqual(['category']);
  });
});

describe('describeResponseTarget', () => {
  it.each([
    ['urgent', 'under 1 hour'],
    ['high', 'under 2 hours'],
    ['normal', 'under 4 hours'],
    ['low', 'under 24 hours'],
  ] as const)('%s → %s', (priority, text) => {
    expect(describeResponseTarget(priority)).toBe(text);
  });
});

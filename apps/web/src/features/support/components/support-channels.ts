import { Building2, Mail, MessageCircle, Phone } from 'lucide-react';

// How to reach us. The phone number is in the range reserved for examples (Ofcom 020 7946 0xxx) until
// the operator's own line is configured.
export const supportChannels = {
  liveChat: {
    icon: MessageCircle,
    title: 'Live chat',
    availability: '24/7',
    text: 'The on-call team answers in the chat around the clock, and you can attach a screenshot or document (PDF, PNG or JPEG). When no one is online, your message becomes a ticket and we answer by e-mail.',
  },
  email: {
    icon: Mail,
    title: 'Email',
    availability: 'Reply within 4 hours',
    text: 'support@covenant.trade',
    href: 'mailto:support@covenant.trade',
  },
  phone: {
    icon: Phone,
    title: 'Phone',
    availability: 'Business hours, 9 AM-6 PM UTC',
    text: '+44 20 7946 0958',
    href: 'tel:+442079460958',
  },
  office: {
    icon: Building2,
    title: 'Office',
    availability: 'By appointment',
    text: 'We meet clients in person by appointment only; the address comes with the confirmation.',
  },
} as const;

export const supportHours = [
  ['Monday - Friday', '9:00 - 18:00 UTC'],
  ['Saturday', '10:00 - 16:00 UTC'],
  ['Sunday', 'Emergency only'],
] as const;

export const specialisedTeams = [
  {
    team: 'General support',
    text: 'Accounts, verification, trades and fees.',
    email: 'support@covenant.trade',
  },
  {
    team: 'Security',
    text: 'Suspected account compromise, phishing, vulnerability reports.',
    email: 'security@covenant.trade',
  },
  {
    team: 'Technical',
    text: 'The API, webhooks, wallets and integrations.',
    email: 'developers@covenant.trade',
  },
] as const;

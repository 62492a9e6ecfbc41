export * from './errors.js';
export * from './support/contact-message.js';
export * from './support/support-priority.js';
export * from './support/support-ticket.js';

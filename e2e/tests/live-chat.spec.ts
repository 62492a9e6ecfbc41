import { readFile } from 'node:fs/promises';
import { type Browser, type Download, expect, type Locator, type Page, test } from '@playwright/test';
import { signInOwnBrowser } from './deal-room-helpers.js';
import { waitForMail } from './mailbox.js';
import { passStaffGate } from './staff-second-factor.js';

// The staff gate may wait up to 30 s for a fresh authenticator code.
test.setTimeout(150_000);

/** A visitor on a phone-sized screen, not signed in, in a browser of its own. */
async function visitorOnPhone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  return context.newPage();
}

/** A 1×1 PNG and a small PDF, as a visitor and staff member would attach them. */
const screenshot = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const instructions = Buffer.from('%PDF-1.4\n% Covenant deposit instructions\n%%EOF\n');

/** Clicks a file's download button and returns the bytes the browser saved. */
async function downloadThrough(page: Page, button: Locator): Promise<{ download: Download; bytes: Buffer }> {
  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  return { download, bytes: await readFile((await download.path())!) };
}

async function openStaffConsole(browser: Browser): Promise<Page> {
  const staff = await signInOwnBrowser(browser, 'admin@demo.covenant.test');
  await staff.goto('/staff/chat');
  await passStaffGate(staff);
  await expect(staff.getByRole('heading', { name: 'Live chat', level: 1 })).toBeVisible();
  await expect(staff.getByTestId('console-state')).toHaveText(/You are online/);
  return staff;
}

test('a visitor and a staff member chat live, each seeing the other’s messages as they are sent', async ({
  browser,
}) => {
  const staff = await openStaffConsole(browser);

  const visitor = await visitorOnPhone(browser);
  await visitor.goto('/contact');
  await visitor.getByRole('button', { name: 'Start live chat' }).click();
  const chat = visitor.getByRole('dialog', { name: 'Live chat' });
  await expect(chat.getByTestId('chat-presence')).toHaveText('Support is online');
  // The panel fits the phone's screen.
  const box = await chat.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  const email = `live-chat-${Date.now()}@example.com`;
  await chat.getByLabel('Your email').fill(email);
  await chat.getByLabel('Your message').fill('Hello, my escrow deposit is not showing.');
  await chat.getByRole('button', { name: 'Start chat' }).click();
  await expect(chat.getByRole('list', { name: 'Messages' })).toContainText(
    'Hello, my escrow deposit is not showing.',
  );

  // The conversation appears in the console without a reload.
  const listed = staff
    .getByRole('region', { name: 'Conversation list' })
    .getByRole('button', { name: new RegExp(email) });
  await expect(listed).toBeVisible();
  await listed.click();
  const conversation = staff.getByRole('region', { name: 'Conversation', exact: true });
  await conversation.getByRole('button', { name: 'Assign to me' }).click();
  await expect(conversation).toContainText('Assigned to admin@demo.covenant.test');

  // A canned reply, saved once and inserted into the answer.
  await conversation.getByText('Add a canned reply').click();
  await conversation.getByLabel('Title').fill(`Greeting ${Date.now()}`);
  await conversation.getByLabel('Reply', { exact: true }).fill('Thanks for writing to Covenant support.');
  await conversation.getByRole('button', { name: 'Save canned reply' }).click();
  await expect(conversation.getByLabel('Canned reply').locator('option')).toHaveCount(2, { timeout: 10_000 });
  await conversation.getByLabel('Canned reply').selectOption({ index: 1 });
  await expect(conversation.getByLabel('Your answer')).toHaveValue('Thanks for writing to Covenant support.');
  await conversation.getByLabel('Your answer').fill('Thanks for writing. Which deal is it?');
  await conversation.getByRole('button', { name: 'Send', exact: true }).click();

  // The visitor sees the answer live, and answers back; the console sees that live too.
  await expect(chat.getByRole('list', { name: 'Messages' })).toContainText(
    'Thanks for writing. Which deal is it?',
  );
  await chat.getByLabel('Your message').fill('The one I opened this morning.');
  await chat.getByRole('button', { name: 'Send' }).click();
  await expect(conversation.getByRole('list', { name: 'History' })).toContainText(
    'The one I opened this morning.',
  );

  // A file each way, live on both sides: the visitor sends a screenshot, staff download its exact
  // bytes and send a PDF back, which the visitor downloads.
  await chat.getByLabel('Attach a file').setInputFiles({
    name: 'screenshot.png',
    mimeType: 'image/png',
    buffer: screenshot,
  });
  await expect(chat.getByTestId('chat-chosen-file')).toContainText('screenshot.png');
  await chat.getByLabel('Your message').fill('Here is what I see.');
  await chat.getByRole('button', { name: 'Send' }).click();
  await expect(chat.getByRole('list', { name: 'Messages' })).toContainText('screenshot.png');
  const history = conversation.getByRole('list', { name: 'History' });
  await expect(history).toContainText('Here is what I see.');
  await expect(history).toContainText('image/png, 1 KB');
  const fromVisitor = await downloadThrough(
    staff,
    history.getByRole('button', { name: 'Download screenshot.png' }),
  );
  expect(fromVisitor.download.suggestedFilename()).toBe('screenshot.png');
  expect(fromVisitor.bytes.equals(screenshot)).toBe(true);

  await conversation.getByLabel('Attach a file').setInputFiles({
    name: 'instructions.pdf',
    mimeType: 'application/pdf',
    buffer: instructions,
  });
  await conversation.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(history).toContainText('instructions.pdf');
  const messages = chat.getByRole('list', { name: 'Messages' });
  await expect(messages).toContainText('instructions.pdf');
  await expect(messages).toContainText('application/pdf, 1 KB');
  const fromStaff = await downloadThrough(
    visitor,
    messages.getByRole('button', { name: 'Download instructions.pdf' }),
  );
  expect(fromStaff.download.suggestedFilename()).toBe('instructions.pdf');
  expect(fromStaff.bytes.equals(instructions)).toBe(true);

  // Closed by staff: the visitor is told, and the history stays in the console.
  await conversation.getByRole('button', { name: 'Close' }).click();
  await expect(chat).toContainText('This conversation is closed.');
  await staff.getByLabel('Show').selectOption('closed');
  await expect(staff.getByRole('region', { name: 'Conversation list' })).toContainText(email);

  await staff.context().close();
  await visitor.context().close();
});

test('with no staff member online the widget says so, and the answer arrives by e-mail', async ({
  browser,
  request,
}) => {
  const visitor = await visitorOnPhone(browser);
  await visitor.goto('/help-center');
  await visitor.getByRole('tab', { name: 'Contact Support' }).click();
  await visitor.getByRole('button', { name: 'Start live chat' }).click();
  const chat = visitor.getByRole('dialog', { name: 'Live chat' });
  await expect(chat.getByTestId('chat-presence')).toHaveText('No one from support is online right now');
  await expect(chat).toContainText('your message becomes a ticket and we answer by e-mail');
  const email = `offline-chat-${Date.now()}@example.com`;
  await chat.getByLabel('Your email').fill(email);
  await chat.getByLabel('Your message').fill('Can I change the payout address of a deal?');
  await chat.getByRole('button', { name: 'Start chat' }).click();
  await expect(chat.getByTestId('chat-by-email')).toContainText(`we answer by e-mail to ${email}`);

  // Later, a staff member answers the ticket from the console; it goes out by e-mail.
  const staff = await openStaffConsole(browser);
  await staff
    .getByRole('region', { name: 'Conversation list' })
    .getByRole('button', { name: new RegExp(email) })
    .click();
  const conversation = staff.getByRole('region', { name: 'Conversation', exact: true });
  await expect(conversation).toContainText('answers go by e-mail');
  await conversation.getByLabel('Your answer').fill('Yes, until both parties have agreed the terms.');
  await conversation.getByRole('button', { name: 'Send by e-mail' }).click();
  await expect(conversation.getByRole('list', { name: 'History' })).toContainText('e-mailed');

  const mail = await waitForMail(request, email, /live chat/);
  expect(mail.text).toContain('Yes, until both parties have agreed the terms.');
  expect(mail.text).toContain('Can I change the payout address of a deal?');
  // The visitor's widget shows the answer too, marked as sent by e-mail.
  await expect(chat.getByRole('list', { name: 'Messages' })).toContainText('Sent to you by e-mail');

  await staff.context().close();
  await visitor.context().close();
});

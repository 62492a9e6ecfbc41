import { configure, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { AppProvider } from '@/app/provider.js';
import { authStorageKey, createAuthClient } from '@/lib/auth-client.js';
import { createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { chatTokenStorageKey } from '../api/live-chat-api.js';
import { LiveChatWidget } from './live-chat-widget.js';

configure({ asyncUtilTimeout: 5000 });

const token = 'T'.repeat(43);

function conversation(overrides: Record<string, unknown> = {}) {
  return {
    id: '3f1f5a4e-8d2b-4a53-9a43-2b4f0e6c1d11',
    email: 'ada@example.com',
    status: 'open',
    mode: 'email',
    staff_online: false,
    created_at: '2026-11-27T10:00:00.000Z',
    messages: [
      {
        id: '0b9c8a57-1f0e-4c51-8f0d-6a7f1f7e2a01',
        author: 'visitor',
        body: 'Is anyone there?',
        attachment: null,
        created_at: '2026-11-27T10:00:00.000Z',
        emailed: false,
      },
    ],
    ...overrides,
  };
}

function renderWidget({ signedInAs }: { signedInAs?: string } = {}) {
  const auth = createFakeAuthServer();
  if (signedInAs) {
    auth.addUser(signedInAs, 'correct horse');
    window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession(signedInAs)));
  }
  const api = createFakeApiServer(auth);
  vi.stubGlobal('fetch', api.server.fetch);
  const authClient = createAuthClient(window.location.origin);
  onTestFinished(() => {
    authClient.stopAutoRefresh();
    window.localStorage.clear();
  });
  render(
    <AppProvider authClient={authClient}>
      <RouterProvider router={createMemoryRouter([{ path: '/', element: <LiveChatWidget /> }])} />
    </AppProvider>,
  );
  return api;
}

describe('LiveChatWidget', () => {
  it('says when no one is online, checks the form, and keeps the new conversation’s token', async () => {
    const api = renderWidget();
    api.on('GET /chat/status', { status: 200, body: { staff_online: false } });
    api.on('POST /chat/conversations', { status: 201, body: { token, conversation: conversation() } });
    api.on('GET /chat/conversation', { status: 200, body: conversation() });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Start live chat' }));
    const chat = screen.getByRole('dialog', { name: 'Live chat' });
    expect(await within(chat).findByText('No one from support is online right now')).toBeTruthy();
    expect(within(chat).getByText(/your message becomes a ticket and we answer by e-mail/)).toBeTruthy();

    await user.type(within(chat).getByLabelText('Your email'), 'not an address');
    await user.click(within(chat).getByRole('button', { name: 'Start chat' }));
    expect(within(chat).getByText('Enter a valid email address')).toBeTruthy();
    expect(within(chat).getByText('Write a message first')).toBeTruthy();
    expect(api.requestsTo('POST /chat/conversations')).toHaveLength(0);

    await user.clear(within(chat).getByLabelText('Your email'));
    await user.type(within(chat).getByLabelText('Your email'), 'Ada@Example.com');
    await user.type(within(chat).getByLabelText('Your message'), 'Is anyone there?');
    await user.click(within(chat).getByRole('button', { name: 'Start chat' }));
    expect(await within(chat).findByText(/we answer by e-mail to ada@example.com/)).toBeTruthy();
    expect(api.requestsTo('POST /chat/conversations')[0]!.body).toEqual({
      email: 'ada@example.com',
      body: 'Is anyone there?',
    });
    expect(api.requestsTo('POST /chat/conversations')[0]!.headers.get('authorization')).toBeNull();
    expect(window.localStorage.getItem(chatTokenStorageKey)).toBe(token);
  });

  it('reopens the stored conversation by its token and sends messages with it', async () => {
    window.localStorage.setItem(chatTokenStorageKey, token);
    const api = renderWidget({ signedInAs: 'ada@example.com' });
    api.on('GET /chat/conversation', {
      status: 200,
      body: conversation({ mode: 'live', staff_online: true }),
    });
    api.on('POST /chat/conversation/messages', (request) => ({
      status: 201,
      body: conversation({
        mode: 'live',
        staff_online: true,
        messages: [
          ...conversation().messages,
          {
            id: '0b9c8a57-1f0e-4c51-8f0d-6a7f1f7e2a02',
            author: 'visitor',
            body: (request.body as { body: string }).body,
            attachment: null,
            created_at: '2026-11-27T10:01:00.000Z',
            emailed: false,
          },
        ],
      }),
    }));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Start live chat' }));
    const chat = screen.getByRole('dialog', { name: 'Live chat' });
    expect(await within(chat).findByText('Support is online')).toBeTruthy();
    expect(within(chat).getByText('Is anyone there?')).toBeTruthy();
    expect(api.requestsTo('GET /chat/conversation')[0]!.headers.get('x-chat-token')).toBe(token);

    await user.type(within(chat).getByLabelText('Your message'), 'Still here');
    await user.click(within(chat).getByRole('button', { name: 'Send' }));
    expect(await within(chat).findByText('Still here')).toBeTruthy();
    expect(api.requestsTo('POST /chat/conversation/messages')[0]!.headers.get('x-chat-token')).toBe(token);
  });

  it('sends a file with a message, refuses other types before sending, and downloads files with the token', async () => {
    window.localStorage.setItem(chatTokenStorageKey, token);
    const api = renderWidget();
    const staffFile = {
      id: '7d5e2c1a-4b3f-4e6a-9c8d-1f2e3a4b5c61',
      filename: 'statement.pdf',
      content_type: 'application/pdf',
      size: 48_000,
    };
    const withStaffFile = conversation({
      mode: 'live',
      staff_online: true,
      messages: [
        ...conversation().messages,
        {
          id: '0b9c8a57-1f0e-4c51-8f0d-6a7f1f7e2a03',
          author: 'staff',
          body: '',
          attachment: staffFile,
          created_at: '2026-11-27T10:01:00.000Z',
          emailed: false,
        },
      ],
    });
    api.on('GET /chat/conversation', { status: 200, body: withStaffFile });
    api.on('POST /chat/conversation/attachments', {
      status: 201,
      body: {
        ...withStaffFile,
        messages: [
          ...withStaffFile.messages,
          {
            id: '0b9c8a57-1f0e-4c51-8f0d-6a7f1f7e2a04',
            author: 'visitor',
            body: 'My receipt',
            attachment: {
              id: '7d5e2c1a-4b3f-4e6a-9c8d-1f2e3a4b5c62',
              filename: 'receipt.png',
              content_type: 'image/png',
              size: 2048,
            },
            created_at: '2026-11-27T10:02:00.000Z',
            emailed: false,
          },
        ],
      },
    });
    api.on(`GET /chat/conversation/attachments/${staffFile.id}`, { status: 200, body: '%PDF-1.7' });
    const createObjectURL = vi.fn(() => 'blob:chat');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const user = userEvent.setup({ applyAccept: false });
    await user.click(screen.getByRole('button', { name: 'Start live chat' }));
    const chat = screen.getByRole('dialog', { name: 'Live chat' });
    expect(await within(chat).findByText('statement.pdf')).toBeTruthy();
    expect(within(chat).getByText('application/pdf, 47 KB')).toBeTruthy();

    await user.click(within(chat).getByRole('button', { name: 'Download statement.pdf' }));
    await vi.waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(1));
    const download = api.requestsTo(`GET /chat/conversation/attachments/${staffFile.id}`);
    expect(download[0]!.headers.get('x-chat-token')).toBe(token);

    const send = within(chat).getByRole('button', { name: 'Send' });
    expect(send).toHaveProperty('disabled', true);
    await user.upload(
      within(chat).getByLabelText('Attach a file'),
      new File(['<script>'], 'notes.html', { type: 'text/html' }),
    );
    expect(within(chat).getByText('notes.html is not a PDF, PNG or JPEG file')).toBeTruthy();
    expect(send).toHaveProperty('disabled', true);
    const large = new File(['x'], 'scan.png', { type: 'image/png' });
    Object.defineProperty(large, 'size', { value: 10 * 1024 * 1024 + 1 });
    await user.upload(within(chat).getByLabelText('Attach a file'), large);
    expect(within(chat).getByText('scan.png is larger than 10 MB')).toBeTruthy();

    const receipt = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'receipt.png', {
      type: 'image/png',
    });
    await user.upload(within(chat).getByLabelText('Attach a file'), receipt);
    expect(within(chat).getByTestId('chat-chosen-file').textContent).toContain('receipt.png');
    await user.type(within(chat).getByLabelText('Your message'), 'My receipt');
    await user.click(send);
    expect(await within(chat).findByText('receipt.png')).toBeTruthy();
    const [sent] = api.requestsTo('POST /chat/conversation/attachments');
    expect(sent!.headers.get('x-chat-token')).toBe(token);
    expect(sent!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent!.body).toMatch(/name="body"\r\n\r\nMy receipt\r\n/);
    expect(sent!.body).toContain('Content-Disposition: form-data; name="file"');
    expect(sent!.body).toContain('Content-Type: image/png');
    expect(api.requestsTo('POST /chat/conversation/messages')).toHaveLength(0);
    expect(within(chat).queryByTestId('chat-chosen-file')).toBeNull();
  });
});

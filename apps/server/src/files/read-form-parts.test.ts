import { AppError } from '@covenant/domain';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleErrors } from '../plugins/handle-errors.js';
import { formRefusal, readFormParts } from './read-form-parts.js';
import { readUploadForm } from './read-upload-form.js';

// The shared multipart reader behind every upload route, on a bare Fastify with the API's error
// handler: a form the client broke is a 4xx in the API's error shape, never a 500.
let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  handleErrors(app, () => new Date('2030-01-01T00:00:00Z'));
  await app.register(multipart);
  app.post('/upload', async (request) => {
    const { fields, uploads } = await readUploadForm(request, {
      fileField: 'file',
      textFields: ['body'],
      maxFiles: 2,
      maxBytes: 1_000,
      fieldSize: 1_000,
      tooLarge: 'The file must be at most 1 KB',
      tooMany: 'Attach at most 2 files',
      fallbackName: 'file',
    });
    return { fields, uploads: uploads.map((upload) => [upload.filename, upload.content.toString()]) };
  });
  app.post('/refuse-every-part', async (request) => {
    await readFormParts(request, { limits, tooLarge, tooMany }, () => {
      throw new AppError('CONFLICT', 'Refused by the route itself');
    });
    return {};
  });
});
afterAll(async () => {
  await app?.close();
});

const limits = { fileSize: 1_000, files: 1, fields: 2, fieldSize: 100, parts: 3 };
const tooLarge = new AppError('PAYLOAD_TOO_LARGE', 'Too large');
const tooMany = new AppError('VALIDATION_FAILED', 'Too many');

const field = (name: string, value: string) =>
  `--x\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const file = (name: string, content: string) =>
  `--x\r\nContent-Disposition: form-data; name="${name}"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n${content}\r\n`;

function post(payload: string, contentType = 'multipart/form-data; boundary=x', url = '/upload') {
  return app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload });
}

describe('readFormParts', () => {
  it('reads a whole form: its text fields and files', async () => {
    const response = await post(`${field('body', 'hello')}${file('file', '%PDF-1.7')}--x--\r\n`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ fields: { body: 'hello' }, uploads: [['a.pdf', '%PDF-1.7']] });
  });

  it.each([
    ['cut off after a text field, before the closing boundary', field('body', 'hello')],
    ['cut off inside a text field', '--x\r\nContent-Disposition: form-data; name="body"\r\n\r\nhel'],
    [
      'cut off inside a file',
      `${field('body', 'hello')}--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7 and then noth`,
    ],
    ['cut off inside the part headers', '--x\r\nContent-Disposition: form-da'],
  ])('answers 400 VALIDATION_FAILED to a body %s', async (_case, payload) => {
    const response = await post(payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/^The form is not valid multipart: .*unexpected end of multipart data/i),
    });
  });

  it.each([
    ['no boundary', 'multipart/form-data'],
    ['an empty boundary', 'multipart/form-data; boundary='],
    ['a boundary longer than the parser takes', `multipart/form-data; boundary=${'b'.repeat(300)}`],
  ])('answers 400 VALIDATION_FAILED to a content type with %s', async (_case, contentType) => {
    const response = await post(`${field('body', 'hello')}--x--\r\n`, contentType);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/^The form is not valid multipart: /),
    });
  });

  it('keeps the form’s own answers to its limits', async () => {
    const large = await post(`${file('file', 'x'.repeat(1_001))}--x--\r\n`);
    expect(large.statusCode, large.body).toBe(413);
    expect(large.json().error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The file must be at most 1 KB',
      details: { issues: [{ path: '/file', message: 'The file must be at most 1 KB' }] },
    });
    const many = await post(`${file('file', 'a')}${file('file', 'b')}${file('file', 'c')}--x--\r\n`);
    expect(many.statusCode, many.body).toBe(400);
    expect(many.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Attach at most 2 files' });
    const polluting = await post(`${field('__proto__', 'x')}--x--\r\n`);
    expect(polluting.statusCode, polluting.body).toBe(400);
    expect(polluting.json().error.message).toBe('The form has a field name that is not allowed');
    const otherField = await post(`${file('evidence', 'a')}--x--\r\n`);
    expect(otherField.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Unexpected file field evidence',
    });
  });

  it('passes the route’s own refusals through as they are', async () => {
    const response = await post(`${field('body', 'hello')}--x--\r\n`, undefined, '/refuse-every-part');
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().error).toMatchObject({ code: 'CONFLICT', message: 'Refused by the route itself' });
  });
});

describe('formRefusal', () => {
  it('keeps an error that already carries a 4xx status, and makes anything else a 400', () => {
    const premature = Object.assign(new Error('closed early'), {
      code: 'FST_MP_PREMATURE_CLOSE',
      statusCode: 400,
    });
    expect(formRefusal(premature, { tooLarge, tooMany })).toBe(premature);
    expect(formRefusal({ code: 'FST_REQ_FILE_TOO_LARGE' }, { tooLarge, tooMany })).toBe(tooLarge);
    expect(formRefusal({ code: 'FST_FILES_LIMIT' }, { tooLarge, tooMany })).toBe(tooMany);
    for (const thrown of [
      new Error('Unexpected end of multipart data'),
      Object.assign(new Error('server side?'), { statusCode: 500 }),
      { code: 'constructor' },
      'a string',
      null,
    ]) {
      const refusal = formRefusal(thrown, { tooLarge, tooMany });
      expect(refusal).toBeInstanceOf(AppError);
      expect(refusal).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    }
  });
});

import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './hash-password.js';
import { findWeakPasswordReasons } from './password-policy.js';

describe('findWeakPasswordReasons', () => {
  it.each([
    ['12345', ['length']],
    ['abcab', ['length', 'characters']],
    ['aaaaaaaaaa', ['characters']],
    ['123456', ['pwned']],
    ['PassWord1', ['pwned']],
    ['bitcoin', ['pwned']],
    ['covenant-demo', []],
    ['correct horse battery', []],
    ['Zq9!', ['length']],
  ])('%s → %j', (password, reasons) => {
    expect(findWeakPasswordReasons(password)).toEqual(reasons);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(findWeakPasswordReasons('🔐🔑🗝️🛡')).toEqual(['length']);
  });
});

describe('password hashing', () => {
  it('stores argon2id hashes that verify only the right password', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse battery!')).toBe(false);
  });
});

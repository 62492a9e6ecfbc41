import { describe, expect, it } from 'vitest';
import { checkNewPassword } from './check-new-password.js';

describe('checkNewPassword', () => {
  it('reports a mismatch first, then the spec’s minimum, then the server’s maximum of 128', () => {
    expect(checkNewPassword('abcdefg', 'abcdefh')?.title).toBe('Password Mismatch');
    expect(checkNewPassword('abc', 'abd')?.title).toBe('Password Mismatch');
    expect(checkNewPassword('abc', 'abc')).toEqual({
      title: 'Password Too Short',
      description: 'Password must be at least 6 characters long.',
    });
    const longest = 'x1y2z3'.repeat(22).slice(0, 128);
    expect(checkNewPassword(longest, longest)).toBeNull();
    expect(checkNewPassword(`${longest}!`, `${longest}!`)).toEqual({
      title: 'Password Too Long',
      description: 'Password must be at most 128 characters long.',
    });
    // Characters, not UTF-16 units: 128 emoji are 128 characters.
    const emoji = '🔐'.repeat(128);
    expect(checkNewPassword(emoji, emoji)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { setStaffRolesSchema, staffUserQuerySchema } from './staff-user.js';

describe('setStaffRolesSchema', () => {
  it('takes a set of staff roles, possibly empty', () => {
    expect(setStaffRolesSchema.parse({ roles: [] })).toEqual({ roles: [] });
    expect(setStaffRolesSchema.parse({ roles: ['admin', 'mediator'] })).toEqual({
      roles: ['admin', 'mediator'],
    });
  });

  it('refuses unknown and repeated roles', () => {
    expect(setStaffRolesSchema.safeParse({ roles: ['trader'] }).success).toBe(false);
    expect(setStaffRolesSchema.safeParse({ roles: ['admin', 'admin'] }).success).toBe(false);
  });
});

describe('staffUserQuerySchema', () => {
  it('pages by at most 50', () => {
    expect(staffUserQuerySchema.parse({})).toEqual({ query: '', limit: 20, offset: 0 });
    expect(staffUserQuerySchema.safeParse({ limit: '51' }).success).toBe(false);
  });
});

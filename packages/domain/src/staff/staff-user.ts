import { z } from 'zod';

/** The roles an admin grants; every user is a trader, so "trader" is not one of them. */
export const staffRoles = ['mediator', 'compliance', 'admin', 'concierge'] as const;
export type StaffRole = (typeof staffRoles)[number];

/** A user as the admins' role console lists them. */
export const staffUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  username: z.string().nullable(),
  roles: z.array(z.enum(staffRoles)),
  created_at: z.string(),
});
export type StaffUser = z.infer<typeof staffUserSchema>;

export const staffUserListSchema = z.object({ data: z.array(staffUserSchema), has_more: z.boolean() });
export type StaffUserList = z.infer<typeof staffUserListSchema>;

/** `GET /staff/users`: part of an e-mail address or username, one page of at most 50. */
export const staffUserQuerySchema = z.object({
  query: z.string().trim().max(200).default(''),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
});

/** `PUT /staff/users/{id}/roles`: the user's complete set of staff roles (empty = trader only). */
export const setStaffRolesSchema = z.object({
  roles: z
    .array(z.enum(staffRoles))
    .max(staffRoles.length)
    .refine((roles) => new Set(roles).size === roles.length, 'Each role may appear once'),
});
export type SetStaffRoles = z.infer<typeof setStaffRolesSchema>;

/** Owner (everything), developer (keys, endpoints, integration test, payments, refunds), viewer (reads). */
export const MEMBER_ROLES = ['owner', 'developer', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

const RANK: Record<MemberRole, number> = { viewer: 0, developer: 1, owner: 2 };

/** Each role can do what the roles below it can. */
export function roleAllows(role: MemberRole, needed: MemberRole): boolean {
  return RANK[role] >= RANK[needed];
}

export function isMemberRole(value: unknown): value is MemberRole {
  return typeof value === 'string' && (MEMBER_ROLES as readonly string[]).includes(value);
}

import { createAccessControl } from 'better-auth/plugins/access';
import { adminAc, defaultStatements, memberAc, ownerAc } from 'better-auth/plugins/organization/access';

/**
 * The dashboard's roles. `owner` and `admin` manage billing, API keys, webhooks and
 * members; `coach` uploads and watches games and edits session names, metadata and players.
 * Shared by the server's organization plugin and the browser's client plugin.
 */
export const ROLES = ['owner', 'admin', 'coach'] as const;
export type Role = (typeof ROLES)[number];

export const accessControl = createAccessControl(defaultStatements);
export const roles = {
  owner: accessControl.newRole(ownerAc.statements),
  admin: accessControl.newRole(adminAc.statements),
  coach: accessControl.newRole(memberAc.statements),
};

/** True for the roles that may see billing, keys, webhooks and members. */
export function isAdminRole(role: string | null | undefined): boolean {
  return (role ?? '').split(',').some((r) => r.trim() === 'owner' || r.trim() === 'admin');
}

/** The most capable of a member's roles (better-auth stores several comma-separated). */
export function primaryRole(role: string): Role {
  const list = role.split(',').map((r) => r.trim());
  return list.includes('owner') ? 'owner' : list.includes('admin') ? 'admin' : 'coach';
}

'use client';

import { organizationClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';
import { accessControl, roles } from '@/server/auth/roles';

/** better-auth in the browser: sign-up/in/out, organizations, invitations, members. */
export const authClient = createAuthClient({
  basePath: '/api/auth',
  plugins: [organizationClient({ ac: accessControl, roles })],
});

/**
 * Makes `organizationId` the one the dashboard acts for, and drops every cached answer: they
 * belong to the organization before (sessions, balance, keys would show another's data).
 */
export async function activateOrganization(organizationId: string, queryClient: { clear(): void }): Promise<void> {
  await authClient.organization.setActive({ organizationId });
  queryClient.clear();
}

/** The message of a better-auth client error. */
export function authErrorMessage(error: { message?: string; statusText?: string } | null | undefined): string {
  return error?.message || error?.statusText || 'Something went wrong.';
}

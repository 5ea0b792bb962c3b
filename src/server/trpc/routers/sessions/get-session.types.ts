import { z } from 'zod';
import type { SwishMeta } from '../../init';
import { ZSession } from '../../schemas/session';

export const getSessionMeta: SwishMeta = {
  openapi: {
    method: 'GET',
    path: '/sessions/{id}',
    protect: true,
    tags: ['Sessions'],
    summary: 'Retrieve a session',
    description: 'The full session with its first 100 highlights, shots and players. Always shows the current (corrected) state.',
  },
  errorStatuses: [404],
};

export const ZGetSessionRequest = z.object({ id: z.string().max(64).describe('A session id (`sess_…`).') }).strict();
export const ZGetSessionResponse = ZSession;

import { applyCorrection, listCorrections, undoCorrection } from '../../../domain/sessions/corrections';
import { idempotent } from '../../idempotency';
import { orgProcedure } from '../../procedures';
import {
  createCorrectionMeta,
  listCorrectionsMeta,
  toCorrection,
  undoCorrectionMeta,
  ZCorrection,
  ZCreateCorrectionRequest,
  ZListCorrectionsRequest,
  ZListCorrectionsResponse,
  ZUndoCorrectionRequest,
} from './corrections.types';
import { syncOutput } from '../../sync-output';

/**
 * Coach corrections, on /v1 and (through the dashboard door) on the session page. Any
 * member may correct, coaches included; the actor is the signed-in user or the API key.
 */
export const createCorrectionRoute = orgProcedure
  .meta(createCorrectionMeta)
  .input(ZCreateCorrectionRequest)
  .output(syncOutput(ZCorrection))
  .mutation(({ ctx, input }) =>
    idempotent(ctx, input, async (record) => {
      const { id, ...rest } = input;
      const created = await applyCorrection(ctx.db, {
        organizationId: ctx.auth.organizationId,
        sessionId: id,
        actor: { userId: ctx.auth.userId, apiKeyId: ctx.auth.apiKeyId },
        correction: toCorrection(rest),
        beforeCommit: (tx, correction) => record(tx, { status: 201, body: correction, headers: {} }),
      });
      ctx.res.status = 201;
      return created;
    }),
  );

export const undoCorrectionRoute = orgProcedure
  .meta(undoCorrectionMeta)
  .input(ZUndoCorrectionRequest)
  .output(syncOutput(ZCorrection))
  .mutation(({ ctx, input }) =>
    undoCorrection(ctx.db, {
      organizationId: ctx.auth.organizationId,
      sessionId: input.id,
      correctionId: input.correction,
      actor: { userId: ctx.auth.userId, apiKeyId: ctx.auth.apiKeyId },
    }),
  );

export const listCorrectionsRoute = orgProcedure
  .meta(listCorrectionsMeta)
  .input(ZListCorrectionsRequest)
  .output(syncOutput(ZListCorrectionsResponse))
  .query(({ ctx, input: { id, ...params } }) => listCorrections(ctx.db, { organizationId: ctx.auth.organizationId, sessionId: id, params }));

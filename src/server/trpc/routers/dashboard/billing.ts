import { z } from 'zod';
import { creditStatement } from '../../../domain/billing/statement';
import { listTopups, requestTopup } from '../../../domain/billing/topups';
import { adminProcedure } from '../../procedures';

/** An admin asks for a top-up paid by invoice; an operator approves it with the CLI. */
export const requestTopupRoute = adminProcedure
  .input(z.object({ amount_cents: z.number().int(), reference: z.string().trim().max(200).optional() }).strict())
  .mutation(({ ctx, input }) =>
    requestTopup(ctx.db, { organizationId: ctx.auth.organizationId, amountCents: input.amount_cents, reference: input.reference, requestedBy: ctx.auth.userId }),
  );

export const listTopupsRoute = adminProcedure.query(({ ctx }) => listTopups(ctx.db, ctx.auth.organizationId));

/** The credit statement of the last `days` days (default 30), as the operator CLI prints it. */
export const statementRoute = adminProcedure
  .input(z.object({ days: z.number().int().min(1).max(366).optional() }).strict().optional())
  .query(({ ctx, input }) => {
    const to = new Date();
    const from = new Date(to.getTime() - (input?.days ?? 30) * 86_400_000);
    return creditStatement(ctx.db, { organizationId: ctx.auth.organizationId, from, to });
  });

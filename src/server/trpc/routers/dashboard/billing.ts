import { z } from 'zod';
import { getAutoRecharge, updateAutoRecharge } from '../../../domain/billing/auto-recharge';
import { expireCredits } from '../../../domain/billing/holds';
import { creditStatement } from '../../../domain/billing/statement';
import { createCheckout } from '../../../domain/billing/stripe';
import { listTopups, requestTopup } from '../../../domain/billing/topups';
import { publicBaseUrl } from '../../../media/urls';
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
  .query(async ({ ctx, input }) => {
    const to = new Date();
    const from = new Date(to.getTime() - (input?.days ?? 30) * 86_400_000);
    // like the CLI: expiries up to now are written first, so the statement matches the balance
    await expireCredits(ctx.db, to, ctx.auth.organizationId);
    return creditStatement(ctx.db, { organizationId: ctx.auth.organizationId, from, to });
  });

/**
 * Card top-up: a Stripe Checkout Session for the amount; the page redirects to its URL and
 * Stripe sends the admin back to the billing page. Credit arrives with the webhook.
 */
export const checkoutRoute = adminProcedure
  .input(z.object({ amount_cents: z.number().int() }).strict())
  .mutation(({ ctx, input }) =>
    createCheckout(ctx.db, { organizationId: ctx.auth.organizationId, amountCents: input.amount_cents, returnUrl: `${publicBaseUrl()}/billing` }),
  );

export const getAutoRechargeRoute = adminProcedure.query(({ ctx }) => getAutoRecharge(ctx.db, ctx.auth.organizationId));

/** Turning auto-recharge on needs card payments and a saved card (409 `payment_provider_missing`). */
export const updateAutoRechargeRoute = adminProcedure
  .input(z.object({ enabled: z.boolean(), threshold_cents: z.number().int(), amount_cents: z.number().int() }).strict())
  .mutation(({ ctx, input }) =>
    updateAutoRecharge(ctx.db, {
      organizationId: ctx.auth.organizationId,
      enabled: input.enabled,
      thresholdCents: input.threshold_cents,
      amountCents: input.amount_cents,
    }),
  );

import { rotateWebhookSecret } from '../../../domain/webhooks/endpoints';
import { adminProcedure } from '../../procedures';
import { rotateWebhookSecretMeta, ZRotateWebhookSecretRequest, ZRotateWebhookSecretResponse } from './rotate-webhook-secret.types';
import { syncOutput } from '../../sync-output';

export const rotateWebhookSecretRoute = adminProcedure
  .meta(rotateWebhookSecretMeta)
  .input(ZRotateWebhookSecretRequest)
  .output(syncOutput(ZRotateWebhookSecretResponse))
  .mutation(({ ctx, input }) => rotateWebhookSecret(ctx.db, { organizationId: ctx.auth.organizationId, id: input.id }));

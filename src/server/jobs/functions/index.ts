import type { InngestFunction } from 'inngest';
import { autoRecharge } from './auto-recharge';
import { expireUploads } from './expire-uploads';
import { expireCredits } from './expire-credits';
import { cutManualHighlight } from './cut-manual-highlight';
import { processSession } from './process-session';
import { renderSessionRenditions } from './render-session-renditions';
import { renderReelFunction } from './render-reel';
import { purgeIdempotencyKeys } from './purge-idempotency-keys';
import { purgeWebhookDeliveries } from './purge-webhook-deliveries';
import { webhookDeliver } from './webhook-deliver';
import { webhookFanOut } from './webhook-fan-out';
import { sweepSessions } from './sweep-sessions';

/**
 * Every Inngest function the service serves at /api/inngest, one per file in this folder.
 * The embedded engine and Inngest Cloud both learn them from this list when the app syncs.
 */
export const functions: InngestFunction.Any[] = [
  processSession,
  renderSessionRenditions,
  sweepSessions,
  expireCredits,
  purgeIdempotencyKeys,
  webhookFanOut,
  webhookDeliver,
  expireUploads,
  purgeWebhookDeliveries,
  autoRecharge,
  cutManualHighlight,
  renderReelFunction,
];

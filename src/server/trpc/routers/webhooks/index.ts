import { router } from '../../init';
import { createWebhookEndpointRoute } from './create-webhook-endpoint';
import { deleteWebhookEndpointRoute } from './delete-webhook-endpoint';
import { getWebhookEndpointRoute } from './get-webhook-endpoint';
import { listWebhookDeliveriesRoute } from './list-webhook-deliveries';
import { listWebhookEndpointsRoute } from './list-webhook-endpoints';
import { rotateWebhookSecretRoute } from './rotate-webhook-secret';
import { sendTestWebhookRoute } from './send-test-webhook';
import { updateWebhookEndpointRoute } from './update-webhook-endpoint';

export const webhooksRouter = router({
  create: createWebhookEndpointRoute,
  list: listWebhookEndpointsRoute,
  get: getWebhookEndpointRoute,
  update: updateWebhookEndpointRoute,
  delete: deleteWebhookEndpointRoute,
  rotateSecret: rotateWebhookSecretRoute,
  deliveries: listWebhookDeliveriesRoute,
  sendTest: sendTestWebhookRoute,
});

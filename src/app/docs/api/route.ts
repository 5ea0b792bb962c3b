import { ApiReference } from '@scalar/nextjs-api-reference';

export const dynamic = 'force-static';

/** The API reference, rendered by Scalar from `/v1/openapi.json`; its script is served locally so the page works offline. */
export const GET = ApiReference({
  url: '/v1/openapi.json',
  cdn: '/docs/api/scalar.js',
  pageTitle: 'Swish API reference',
  theme: 'default',
  hideClientButton: true,
});

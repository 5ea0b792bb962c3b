/**
 * Which Inngest runs the functions. Embedded (the default): this process runs the engine
 * and points the SDK at it through the SDK's own environment variables. External: the
 * operator set any of Inngest's variables (Inngest Cloud, self-hosted Inngest or the
 * Inngest dev server), and the embedded engine stays off.
 */

const OPERATOR_VARS = [
  'INNGEST_BASE_URL',
  'INNGEST_API_BASE_URL',
  'INNGEST_EVENT_API_BASE_URL',
  'INNGEST_DEV',
  'INNGEST_EVENT_KEY',
  'INNGEST_SIGNING_KEY',
] as const;

/** Marks variables this process exported for its embedded engine (so they are not mistaken for an operator's). */
const EMBEDDED_MARKER = 'SWISH_INNGEST_EMBEDDED';

export type InngestMode = 'embedded' | 'external';

/** `external` when the operator configured Inngest (any of its env vars), otherwise `embedded`. */
export function inngestMode(env: NodeJS.ProcessEnv = process.env): InngestMode {
  if (env[EMBEDDED_MARKER] === '1') return 'embedded';
  return OPERATOR_VARS.some((k) => env[k]) ? 'external' : 'embedded';
}

/**
 * Points the Inngest SDK of this process at the embedded engine: cloud mode against the
 * engine's URL with keys only this process knows, so `/api/inngest` rejects unsigned calls
 * even though no operator configured a signing key.
 */
export function exportEmbeddedEnv(opts: { engineUrl: string; signingKey: string; eventKey: string }, env: NodeJS.ProcessEnv = process.env): void {
  env[EMBEDDED_MARKER] = '1';
  env.INNGEST_BASE_URL = opts.engineUrl;
  env.INNGEST_SIGNING_KEY = opts.signingKey;
  env.INNGEST_EVENT_KEY = opts.eventKey;
  delete env.INNGEST_DEV;
  delete env.INNGEST_API_BASE_URL;
  delete env.INNGEST_EVENT_API_BASE_URL;
}

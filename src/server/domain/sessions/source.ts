import { AppError } from '../errors';
import { privateSourcesAllowed } from '../net/ssrf';

export type SourceType = 'upload' | 'url' | 'platform';

export interface SourceInput {
  type?: SourceType;
  upload_id?: string;
  url?: string;
}

export interface ResolvedSource {
  type: SourceType;
  url: string | null;
  uploadId: string | null;
}

const DEFAULT_PLATFORM_HOSTS = 'hudl.com,vimeo.com,youtube.com,youtu.be';

/** Hosts of the supported video platforms (SWISH_PLATFORM_HOSTS, comma-separated; subdomains included). */
export function platformHosts(): string[] {
  return (process.env.SWISH_PLATFORM_HOSTS ?? DEFAULT_PLATFORM_HOSTS)
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

export function isPlatformHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return platformHosts().some((h) => host === h || host.endsWith(`.${h}`));
}

function parseSourceUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('parameter_invalid', { message: 'source.url is not a valid absolute URL.', param: 'source.url' });
  }
  const httpOk = privateSourcesAllowed() && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpOk) {
    throw new AppError('parameter_invalid', { message: 'source.url must be an https URL.', param: 'source.url' });
  }
  if (url.username || url.password) {
    throw new AppError('parameter_invalid', { message: 'source.url must not contain credentials.', param: 'source.url' });
  }
  return url;
}

/**
 * Applies SPEC §4.1's source rules: `type` derived when omitted; a link to a supported
 * platform is always `platform`; `url` and `platform` need an https URL; `upload` needs an
 * `upload_id` and no URL.
 */
export function resolveSource(input: SourceInput): ResolvedSource {
  const { type, upload_id: uploadId, url } = input;
  if (uploadId !== undefined && url !== undefined) {
    throw new AppError('parameter_invalid', { message: 'Send either source.upload_id or source.url, not both.', param: 'source' });
  }
  const kind: SourceType | undefined = type ?? (uploadId !== undefined ? 'upload' : url !== undefined ? 'url' : undefined);
  if (!kind) {
    throw new AppError('parameter_missing', { message: 'The source needs an upload_id or a url.', param: 'source' });
  }
  if (kind === 'upload') {
    if (!uploadId) throw new AppError('parameter_missing', { message: 'Missing required parameter: source.upload_id.', param: 'source.upload_id' });
    if (url !== undefined) throw new AppError('parameter_invalid', { message: 'An upload source takes no url.', param: 'source.url' });
    return { type: 'upload', url: null, uploadId };
  }
  if (!url) throw new AppError('parameter_missing', { message: 'Missing required parameter: source.url.', param: 'source.url' });
  if (uploadId !== undefined) throw new AppError('parameter_invalid', { message: `A ${kind} source takes no upload_id.`, param: 'source.upload_id' });
  const parsed = parseSourceUrl(url);
  return { type: isPlatformHost(parsed.hostname) ? 'platform' : kind, url: parsed.toString(), uploadId: null };
}

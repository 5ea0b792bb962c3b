import { getDb } from '@/server/db/client';
import { resolveShareToken } from '@/server/domain/reels/shares';
import { mediaUrl } from '@/server/media/storage';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Lifetime of the video and poster URLs a share page hands out: long enough to watch, short enough that a revoked link dies soon. */
const SHARE_MEDIA_TTL_SECONDS = 900;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title>
<style>
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:16px;background:#111114;color:#f4f4f6;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;padding:16px;box-sizing:border-box}
h1{font-size:20px;margin:0;text-align:center}p{margin:0;color:#b9b9c3;text-align:center;max-width:32rem}
video{max-width:100%;max-height:80vh;border-radius:8px;background:#000}
footer{font-size:13px;color:#8c8c96}
</style></head><body>${body}<footer>Swish</footer></body></html>`;
  return new Response(html, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      // the token is in the URL: never send it to another site
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex',
    },
  });
}

/**
 * The public page of a reel share link: no account needed. It plays the reel from signed
 * media URLs made for this request (15 minutes), shows the session's name, and answers 404
 * for an unknown link and 410 for a revoked or expired one.
 */
export async function GET(_req: Request, ctx: { params: Promise<{ token: string }> }) {
  const { token } = await ctx.params;
  const found = await resolveShareToken(getDb(), token);
  if (found.state === 'missing') {
    return page(404, 'Reel not found · Swish', '<h1>This reel does not exist</h1><p>Check the link, or ask whoever shared it for a new one.</p>');
  }
  if (found.state !== 'ok') {
    const why = found.state === 'revoked' ? 'was turned off by its owner' : 'has expired';
    return page(410, 'Link no longer available · Swish', `<h1>This link ${why}</h1><p>Share links stop working when they are revoked or expire. Ask whoever shared it for a new one.</p>`);
  }
  const name = found.sessionName ?? found.reel.title ?? 'Basketball highlights';
  const video = mediaUrl(found.reel.storageKey, SHARE_MEDIA_TTL_SECONDS, { exact: true })!;
  const poster = mediaUrl(found.reel.posterKey, SHARE_MEDIA_TTL_SECONDS, { exact: true });
  const heading = found.reel.title && found.reel.title !== name ? `${name} — ${found.reel.title}` : name;
  return page(
    200,
    `${name} · Swish`,
    `<h1 data-testid="reel-title">${escape(heading)}</h1>
<video data-testid="reel-video" src="${escape(video)}"${poster ? ` poster="${escape(poster)}"` : ''} controls playsinline preload="metadata" aria-label="${escape(`Reel: ${name}`)}"></video>`,
  );
}

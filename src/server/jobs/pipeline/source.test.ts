import { describe, expect, it } from 'vitest';
import { resolveVideoFromPage } from './source';

const page = 'https://league.example/matches/42';

describe('resolveVideoFromPage', () => {
  it('prefers JSON-LD VideoObject.contentUrl, also inside @graph', () => {
    const html = `<html><head>
      <meta property="og:video" content="https://cdn.example/og.mp4">
      <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},{"@type":"VideoObject","contentUrl":"https://cdn.example/game.mp4"}]}</script>
      </head><body><video src="/v.mp4"></video></body></html>`;
    expect(resolveVideoFromPage(html, page)).toBe('https://cdn.example/game.mp4');
  });

  it('falls back to og:video:secure_url, then og:video', () => {
    const html = `<meta property="og:video" content="https://cdn.example/plain.mp4"><meta property="og:video:secure_url" content="https://cdn.example/secure.mp4?a=1&amp;b=2">`;
    expect(resolveVideoFromPage(html, page)).toBe('https://cdn.example/secure.mp4?a=1&b=2');
    expect(resolveVideoFromPage(`<meta content='https://cdn.example/x.mp4' property='og:video'>`, page)).toBe('https://cdn.example/x.mp4');
  });

  it('falls back to the first <video> or <source>, resolving relative URLs', () => {
    expect(resolveVideoFromPage('<video controls><source src="/media/game.mp4" type="video/mp4"></video>', page)).toBe('https://league.example/media/game.mp4');
    expect(resolveVideoFromPage('<script type="application/ld+json">{ not json</script><video src="clip.mp4">', page)).toBe('https://league.example/matches/clip.mp4');
  });

  it('returns null when the page has no video', () => {
    expect(resolveVideoFromPage('<html><body><img src="a.png"></body></html>', page)).toBeNull();
  });
});

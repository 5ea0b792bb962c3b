import { afterEach, describe, expect, it } from 'vitest';
import { resolveSource } from './source';

describe('resolveSource', () => {
  afterEach(() => {
    delete process.env.SWISH_ALLOW_PRIVATE_SOURCES;
    delete process.env.SWISH_PLATFORM_HOSTS;
  });

  it('derives the type from the fields', () => {
    expect(resolveSource({ url: 'https://cdn.example.com/g.mp4' })).toEqual({ type: 'url', url: 'https://cdn.example.com/g.mp4', uploadId: null });
    expect(resolveSource({ upload_id: 'up_x' })).toEqual({ type: 'upload', url: null, uploadId: 'up_x' });
  });

  it('always routes supported platform hosts (and their subdomains) as platform', () => {
    expect(resolveSource({ url: 'https://www.hudl.com/video/1' }).type).toBe('platform');
    expect(resolveSource({ type: 'url', url: 'https://vimeo.com/123' }).type).toBe('platform');
    process.env.SWISH_PLATFORM_HOSTS = 'league.example';
    expect(resolveSource({ url: 'https://watch.league.example/m/9' }).type).toBe('platform');
    expect(resolveSource({ url: 'https://vimeo.com/123' }).type).toBe('url');
  });

  it('requires https unless private sources are allowed for tests', () => {
    expect(() => resolveSource({ url: 'http://cdn.example.com/g.mp4' })).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'source.url' }));
    process.env.SWISH_ALLOW_PRIVATE_SOURCES = '1';
    expect(resolveSource({ url: 'http://127.0.0.1:9/g.mp4' }).type).toBe('url');
  });

  it('rejects contradictory or incomplete sources with the field concerned', () => {
    const fails = (input: Parameters<typeof resolveSource>[0], code: string, param: string) =>
      expect(() => resolveSource(input)).toThrow(expect.objectContaining({ code, param }));
    fails({}, 'parameter_missing', 'source');
    fails({ type: 'upload' }, 'parameter_missing', 'source.upload_id');
    fails({ type: 'url' }, 'parameter_missing', 'source.url');
    fails({ type: 'platform', upload_id: 'up_x' }, 'parameter_missing', 'source.url');
    fails({ upload_id: 'up_x', url: 'https://a.example/b.mp4' }, 'parameter_invalid', 'source');
    fails({ url: 'https://user:pw@a.example/b.mp4' }, 'parameter_invalid', 'source.url');
    fails({ url: '/relative.mp4' }, 'parameter_invalid', 'source.url');
  });
});

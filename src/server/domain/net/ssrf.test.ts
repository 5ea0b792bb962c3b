import { afterEach, describe, expect, it } from 'vitest';
import { assertSafeUrl, isBlockedAddress } from './ssrf';

describe('SSRF guard', () => {
  afterEach(() => delete process.env.SWISH_ALLOW_PRIVATE_SOURCES);

  it('blocks private, loopback, link-local, metadata and reserved addresses', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1', '224.0.0.1']) {
      expect(isBlockedAddress(ip), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700::1111']) expect(isBlockedAddress(ip), ip).toBe(false);
  });

  it('sees IPv4 inside IPv6 in every spelling, and the IPv6 ranges that reach IPv4', () => {
    for (const ip of [
      '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '::FFFF:A00:1', '::ffff:0:127.0.0.1', '::127.0.0.1',
      '2002:7f00:1::1', '2002:a9fe:a9fe::', '64:ff9b::a00:1', '64:ff9b:1::1', '2001::1', '2001:db8::1', 'fec0::1', '100::1', 'ff02::1', '::', 'fe80::1%eth0',
      'not-an-ip', '1::2::3',
    ]) {
      expect(isBlockedAddress(ip), ip).toBe(true);
    }
    for (const ip of ['::ffff:8.8.8.8', '::ffff:808:808', '2002:808:808::1', '2a00:1450:4001:80b::200e', '2606:4700::1111']) expect(isBlockedAddress(ip), ip).toBe(false);
  });

  it('rejects non-https, credentials and private literal hosts', async () => {
    await expect(assertSafeUrl('http://93.184.216.34/a.mp4')).rejects.toThrow(/https/);
    await expect(assertSafeUrl('https://u:p@93.184.216.34/a.mp4')).rejects.toThrow(/credentials/);
    await expect(assertSafeUrl('https://127.0.0.1/a.mp4')).rejects.toThrow(/private/);
    await expect(assertSafeUrl('https://[::1]/a.mp4')).rejects.toThrow(/private/);
    await expect(assertSafeUrl('https://localhost/a.mp4')).rejects.toThrow(/private/);
    await expect(assertSafeUrl('https://169.254.169.254/latest/meta-data')).rejects.toThrow(/private/);
    await expect(assertSafeUrl('https://93.184.216.34/a.mp4')).resolves.toBeInstanceOf(URL);
  });

  it('lets tests reach local servers only when explicitly allowed', async () => {
    process.env.SWISH_ALLOW_PRIVATE_SOURCES = '1';
    await expect(assertSafeUrl('http://127.0.0.1:8080/a.mp4')).resolves.toBeInstanceOf(URL);
  });
});

import { describe, expect, it } from 'vitest';
import { clientAddress, trustedProxyHops } from './client-address';

describe('the client address', () => {
  it('is the socket address when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('203.0.113.7', '10.9.8.1', 0)).toBe('203.0.113.7');
    expect(clientAddress('203.0.113.7', undefined, 0)).toBe('203.0.113.7');
  });

  it('is the entry a trusted proxy appended, not one the client wrote before it', () => {
    // client 198.51.100.4 claims 6.6.6.6; the load balancer (10.0.0.2) appends what it saw
    expect(clientAddress('10.0.0.2', '6.6.6.6, 198.51.100.4', 1)).toBe('198.51.100.4');
    // two proxies: CDN then load balancer
    expect(clientAddress('10.0.0.2', '6.6.6.6, 198.51.100.4, 172.16.0.9', 2)).toBe('198.51.100.4');
    expect(clientAddress('10.0.0.2', ['6.6.6.6', '198.51.100.4'], 1)).toBe('198.51.100.4');
    // fewer entries than hops: the leftmost there is
    expect(clientAddress('10.0.0.2', undefined, 1)).toBe('10.0.0.2');
  });

  it('reads SWISH_TRUSTED_PROXIES as a whole number of hops', () => {
    expect(trustedProxyHops({})).toBe(0);
    expect(trustedProxyHops({ SWISH_TRUSTED_PROXIES: '1' })).toBe(1);
    expect(() => trustedProxyHops({ SWISH_TRUSTED_PROXIES: 'yes' })).toThrow(/whole number/);
  });
});

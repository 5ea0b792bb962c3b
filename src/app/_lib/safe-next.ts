/**
 * The page to go to after signing in, from a `?next=` parameter: a path of this site only.
 * Anything else — another origin, a protocol-relative `//host`, a `/\host` that browsers read
 * as one, a `javascript:` URL — gives the fallback, so a sign-in link cannot hand a user who
 * just signed in to another site.
 */
export function safeNextPath(next: string | null, fallback = '/sessions'): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  try {
    const base = 'http://swish.invalid';
    const url = new URL(next, base);
    if (url.origin !== base) return fallback;
    // judged again after parsing: dot segments can turn `/.//host` into `//host`, another site
    const out = url.pathname + url.search + url.hash;
    return out.startsWith('//') || out.startsWith('/\\') ? fallback : out;
  } catch {
    return fallback;
  }
}

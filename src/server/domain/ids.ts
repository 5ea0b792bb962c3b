import { randomBytes } from 'node:crypto';

/** Every public id prefix lives here (DESIGN §4). */
export const ID_PREFIXES = {
  organization: 'org',
  group: 'grp',
  apiKey: 'key',
  session: 'sess',
  upload: 'up',
  highlight: 'hl',
  shot: 'shot',
  correction: 'corr',
  player: 'plr',
  usageEvent: 'ue',
  event: 'evt',
  webhookEndpoint: 'we',
  webhookDelivery: 'whd',
  creditGrant: 'cg',
  ledgerEntry: 'le',
  request: 'req',
  topupRequest: 'tur',
  autoRechargeAttempt: 'ara',
  reel: 'reel',
  reelShare: 'rsh',
  // dashboard sign-in (better-auth models)
  user: 'usr',
  member: 'mem',
  invitation: 'inv',
  authSession: 'ses',
  account: 'acct',
  verification: 'vrf',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

let lastMs = 0;
let counter = 0;

/**
 * `newId('session')` → `sess_01jd…`: 10 base32 chars of milliseconds, 4 of a per-process
 * counter (monotonic within a millisecond) and 12 random, so sorting ids sorts by creation
 * time and cursor pagination by id is pagination by time.
 */
export function newId(kind: IdKind): string {
  const now = Date.now();
  if (now === lastMs) counter++;
  else {
    lastMs = now;
    counter = randomBytes(2).readUInt16BE(0) & 0x3ff; // random start leaves room to count up
  }
  let ms = now;
  let time = '';
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[ms % 32] + time;
    ms = Math.floor(ms / 32);
  }
  let c = counter & 0xfffff;
  let seq = '';
  for (let i = 0; i < 4; i++) {
    seq = ALPHABET[c % 32] + seq;
    c >>= 5;
  }
  const rnd = randomBytes(12);
  let tail = '';
  for (const b of rnd) tail += ALPHABET[b % 32];
  return `${ID_PREFIXES[kind]}_${time}${seq}${tail}`;
}

const ID_PATTERN = /^[a-z]+_[0-9a-z]{26}$/;

/** True when `id` is shaped like an id of `kind` (used to reject junk before a lookup). */
export function isId(kind: IdKind, id: string): boolean {
  return id.startsWith(`${ID_PREFIXES[kind]}_`) && ID_PATTERN.test(id);
}

import { and, eq, lte, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { creditGrants } from '../db/schema';
import { makeOrg } from '../../test/db';
import { grantCredits } from './billing/credits';
import { paginate, type ListParams } from './pagination';

describe('the list helper', () => {
  let ctx: Awaited<ReturnType<typeof makeOrg>>;
  let ids: string[];

  beforeAll(async () => {
    ctx = await makeOrg();
    ids = [];
    for (let i = 0; i < 25; i++) {
      const g = await ctx.db.transaction((tx) => grantCredits(tx, { organizationId: ctx.org.id, amountCents: i + 1, source: 'manual' }));
      ids.push(g.id);
    }
    ids.reverse(); // newest first
  });

  /** An organization's credit grants as a list of ids: all of them, or as `more` filters and orders. */
  const grantsOf = (org: Awaited<ReturnType<typeof makeOrg>>, params: ListParams, more: { where?: SQL; position?: PgColumn; order?: 'asc' | 'desc' } = {}) =>
    paginate<typeof creditGrants.$inferSelect, string>(org.db, {
      table: creditGrants,
      id: creditGrants.id,
      scope: eq(creditGrants.organizationId, org.org.id),
      noun: 'grant',
      where: eq(creditGrants.organizationId, org.org.id),
      params,
      map: (rows) => rows.map((r) => r.id),
      ...more,
    });
  const list = (params: ListParams) => grantsOf(ctx, params);

  it('returns the newest 10 by default with the total count', async () => {
    const page = await list({});
    expect(page).toMatchObject({ object: 'list', has_more: true, total_count: 25 });
    expect(page.data).toEqual(ids.slice(0, 10));
  });

  it('pages forward with starting_after until has_more is false', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await list({ limit: 7, starting_after: cursor });
      seen.push(...page.data);
      expect(page.total_count).toBe(25);
      if (!page.has_more) break;
      cursor = page.data.at(-1);
    }
    expect(seen).toEqual(ids);
  });

  it('pages backward with ending_before', async () => {
    const page = await list({ limit: 5, ending_before: ids[12] });
    expect(page.data).toEqual(ids.slice(7, 12));
    expect(page.has_more).toBe(true);
    const first = await list({ limit: 5, ending_before: ids[3] });
    expect(first.data).toEqual(ids.slice(0, 3));
    expect(first.has_more).toBe(false);
  });

  it('handles the edges: limit 1, limit 100, past the end', async () => {
    expect((await list({ limit: 1 })).data).toEqual([ids[0]]);
    const all = await list({ limit: 100 });
    expect(all.data).toEqual(ids);
    expect(all.has_more).toBe(false);
    const empty = await list({ starting_after: ids[24] });
    expect(empty).toMatchObject({ data: [], has_more: false, total_count: 25 });
  });

  it('refuses a cursor that names nothing in the scope, and pages from one the filters leave out', async () => {
    const other = await makeOrg();
    const foreign = await other.db.transaction((tx) => grantCredits(tx, { organizationId: other.org.id, amountCents: 1, source: 'manual' }));
    for (const [params, param] of [
      [{ starting_after: 'cg_nope' }, 'starting_after'],
      [{ ending_before: foreign.id }, 'ending_before'],
    ] as const) {
      await expect(list(params)).rejects.toMatchObject({ code: 'parameter_invalid', param, message: `No such grant: '${Object.values(params)[0]}'.` });
    }
    // a cursor the list's filters leave out still pages: it is in the scope (ids[5] is a 20-cent
    // grant; the list holds those of 10 cents or less, the older ones)
    const small = await grantsOf(ctx, { starting_after: ids[5], limit: 100 }, { where: and(eq(creditGrants.organizationId, ctx.org.id), lte(creditGrants.amountCents, 10)) });
    expect(small.data).toEqual(ids.slice(15));
  });

  it('orders by a position column before the id, and pages from a cursor row’s position', async () => {
    // grants of 6, 5, … 1 cents, made in that order: by amount the list runs against creation
    const own = await makeOrg();
    const made: string[] = [];
    for (let c = 6; c >= 1; c--) made.push((await own.db.transaction((tx) => grantCredits(tx, { organizationId: own.org.id, amountCents: c, source: 'manual' }))).id);
    const byAmount = made.slice().reverse();
    const list = (params: ListParams) => grantsOf(own, params, { position: creditGrants.amountCents, order: 'asc' });
    expect((await list({ limit: 2 })).data).toEqual(byAmount.slice(0, 2));
    expect((await list({ limit: 2, starting_after: byAmount[1] })).data).toEqual(byAmount.slice(2, 4));
    expect((await list({ limit: 2, ending_before: byAmount[4] })).data).toEqual(byAmount.slice(2, 4));
    expect(await list({ limit: 10, starting_after: byAmount[4] })).toMatchObject({ data: [byAmount[5]], has_more: false });
  });
});

import { eq } from 'drizzle-orm';
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

  const list = (params: ListParams) =>
    paginate<typeof creditGrants.$inferSelect, string>(ctx.db, {
      table: creditGrants,
      id: creditGrants.id,
      where: eq(creditGrants.organizationId, ctx.org.id),
      params,
      map: (rows) => rows.map((r) => r.id),
    });

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
});

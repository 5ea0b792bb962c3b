import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appRouter } from './routers';
import { isSyncOutput, syncOutput } from './sync-output';

describe('syncOutput', () => {
  it('keeps the full check: wrong values are refused and unknown keys stripped', async () => {
    const schema = syncOutput(z.object({ id: z.string(), n: z.number().int() }));
    await expect(schema.parseAsync({ id: 'a', n: 1.5 })).rejects.toThrow();
    await expect(schema.parseAsync({ id: 'a', n: 1, secret: 'x' })).resolves.toEqual({ id: 'a', n: 1 });
  });

  it('parses synchronously (an asynchronous refinement now throws instead of being awaited)', async () => {
    const refined = z.string().refine(async () => true);
    await expect(refined.parseAsync('x')).resolves.toBe('x');
    await expect(syncOutput(refined).parseAsync('x')).rejects.toThrow(/synchronous/i);
  });

  it('keeps the schema object, so its OpenAPI component id stays', () => {
    const schema = z.object({ id: z.string() }).meta({ id: 'Thing' });
    expect(syncOutput(schema)).toBe(schema);
    expect(z.globalRegistry.get(schema)?.id).toBe('Thing');
  });

  it('is applied to the output of every procedure that declares one', () => {
    const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { output?: unknown } }>);
    const withOutput = procedures.filter(([, p]) => p._def.output !== undefined);
    expect(withOutput.length).toBeGreaterThanOrEqual(20);
    expect(withOutput.filter(([, p]) => !isSyncOutput(p._def.output)).map(([name]) => name)).toEqual([]);
  });
});

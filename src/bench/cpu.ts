import { readFileSync } from 'node:fs';

/**
 * CPU seconds from a Linux `/proc/…/stat` file (user + system of the process or thread, and of
 * its finished children), in USER_HZ = 1/100 s; null where there is no such file (not Linux).
 * Benchmarks count CPU seconds because they are steadier than wall time on a shared machine.
 */
export function procCpuSeconds(statPath = '/proc/self/stat'): { own: number; children: number } | null {
  let text: string;
  try {
    text = readFileSync(statPath, 'utf8');
  } catch {
    return null;
  }
  // fields after the command name, which is in parentheses and may itself hold spaces or ')'
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { own: (Number(f[11]) + Number(f[12])) / 100, children: (Number(f[13]) + Number(f[14])) / 100 };
}

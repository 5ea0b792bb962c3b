import { readFileSync } from 'node:fs';

/**
 * x264's instruction sets (its `asm` parameter) for the analyser's test videos — synthetic
 * renders and their transformed copies: the AVX2 level. x264's output depends on the SIMD code
 * it runs (the same frames encoded with and without AVX-512 give different streams), so the
 * same game rendered on two CPUs had different pixels, and the analyser's borderline calls on
 * them differed: on a machine with AVX-512, seven integration tests of one seed failed (a ball
 * drawn a frame off, made/missed calls flipped, an attempt lost) that pass on AVX2 machines,
 * where every synthetic set, test and figure was made. So it is pinned at that level wherever
 * the CPU has it; `null` (x264's own choice) on a CPU without it, or off x86.
 */
export const X264_REFERENCE_CPU = 'SSE2Fast,SSSE3,SSE4.2,AVX,FMA3,BMI2,AVX2';
/**
 * The CPU flags (Linux names) x264 uses at `X264_REFERENCE_CPU`. Its BMI levels also use LZCNT (Linux's `abm`), which
 * is not asked for: every CPU with BMI2 and AVX2 has it (Intel since Haswell, AMD since Excavator), and some virtual
 * machines leave `abm` out of the flags they show while the instruction runs (an AMD EPYC guest seen here), where
 * asking for it let x264 choose AVX-512 and the tests' renders differed.
 */
const REFERENCE_CPU_FLAGS = ['sse2', 'ssse3', 'sse4_1', 'sse4_2', 'popcnt', 'avx', 'fma', 'bmi1', 'bmi2', 'avx2'];

let referenceCpu: string | null | undefined;

/** `X264_REFERENCE_CPU` when this machine's CPU has every instruction set of it, else null. */
export function x264ReferenceCpu(cpuinfo?: string): string | null {
  if (cpuinfo === undefined && referenceCpu !== undefined) return referenceCpu;
  let text = cpuinfo;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/cpuinfo', 'utf8');
    } catch {
      text = '';
    }
  }
  const flags = new Set(/^flags\s*:(.*)$/m.exec(text)?.[1].trim().split(/\s+/) ?? []);
  const result = REFERENCE_CPU_FLAGS.every((f) => flags.has(f)) ? X264_REFERENCE_CPU : null;
  if (cpuinfo === undefined) referenceCpu = result;
  return result;
}

/** `-x264-params asm=…` pinning x264 to `X264_REFERENCE_CPU` where the CPU has it, else nothing. Goes after `-c:v libx264`. */
export function x264ReferenceArgs(): string[] {
  const cpu = x264ReferenceCpu();
  return cpu ? ['-x264-params', `asm=${cpu}`] : [];
}

/** A name for caches of rendered test videos: renders made at the pinned level and with x264's own choice differ. */
export function x264RenderLevel(): string {
  return x264ReferenceCpu() ? 'x264-avx2' : 'x264-auto';
}

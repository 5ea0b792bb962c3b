import { describe, expect, it } from 'vitest';
import { X264_REFERENCE_CPU, x264ReferenceCpu } from './x264-cpu';

const AVX2 = 'fpu sse sse2 ssse3 fma cx16 sse4_1 sse4_2 popcnt avx f16c abm bmi1 avx2 bmi2';

describe('x264ReferenceCpu', () => {
  it('pins the AVX2 level on a CPU that has it, with or without AVX-512', () => {
    expect(x264ReferenceCpu(`processor : 0\nflags\t\t: ${AVX2}\n`)).toBe(X264_REFERENCE_CPU);
    expect(x264ReferenceCpu(`processor : 0\nflags\t\t: ${AVX2} avx512f avx512bw\n`)).toBe(X264_REFERENCE_CPU);
  });

  it('pins it on a virtual machine that hides LZCNT (abm) from its flags', () => {
    expect(x264ReferenceCpu(`processor : 0\nflags\t\t: ${AVX2.replace(' abm', '')} avx512f avx512bw\n`)).toBe(X264_REFERENCE_CPU);
  });

  it("leaves x264 its own choice on a CPU without one of the level's sets, or without flags", () => {
    expect(x264ReferenceCpu(`flags\t\t: ${AVX2.replace(' avx2', '')}\n`)).toBeNull();
    expect(x264ReferenceCpu(`flags\t\t: ${AVX2.replace(' bmi2', '')}\n`)).toBeNull();
    expect(x264ReferenceCpu('processor : 0\nFeatures : fp asimd\n')).toBeNull();
    expect(x264ReferenceCpu('')).toBeNull();
  });
});

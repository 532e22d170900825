/** Shared figures for benchmarks: percentiles in microseconds from hrtime samples. */
export function percentiles(samplesNs: readonly number[]): { p50: number; p99: number; max: number; mean: number } {
  const s = [...samplesNs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]! / 1000;
  const mean = s.reduce((a, b) => a + b, 0) / s.length / 1000;
  return { p50: at(0.5), p99: at(0.99), max: s[s.length - 1]! / 1000, mean };
}

export function fmt(us: number): string {
  return us < 10 ? us.toFixed(2) : us.toFixed(1);
}

/** A small deterministic PRNG so every run measures the same workload. */
export function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}

/** The part of autocannon's programmatic API the benchmarks use. */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    /** `total`: the requests answered in the run */
    requests: Histogram & { total: number };
    latency: Histogram;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    errors: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Array<{ setupRequest?: (req: any) => any }>;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}

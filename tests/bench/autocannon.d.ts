// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
  }

  interface Options {
    url: string;
    connections?: number;
    amount?: number;
    /** Seconds to run, instead of `amount`. */
    duration?: number;
    timeout?: number;
    requests?: { method?: string; path?: string; setupRequest?: (request: RawRequest, context: object) => RawRequest }[];
  }

  export interface Result {
    requests: { total: number; average: number };
    errors: number;
    timeouts: number;
    statusCodeStats: Record<string, { count: number }>;
    /** Seconds the run took. */
    duration: number;
  }

  interface Instance extends EventEmitter {
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
    on(event: 'done', listener: (result: Result) => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    /** Ends the run early: the callback then gets the result so far. */
    stop(): void;
  }

  function autocannon(options: Options, callback?: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}

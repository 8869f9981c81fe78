/**
 * The slice of autocannon 9's programmatic API the bench uses. The package ships no types and
 * @types/autocannon is not a dependency; field names follow autocannon's README ("API", "Results").
 */
declare module 'autocannon' {
  namespace autocannon {
    interface RequestParams {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }

    interface Request extends RequestParams {
      /** Called before every send; the returned request is the one written to the socket. */
      setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams | undefined;
    }

    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      pipelining?: number;
      /** Seconds before a request counts as a timeout. */
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      requests?: Request[];
    }

    interface Histogram {
      average: number;
      min: number;
      max: number;
      p50: number;
      p99: number;
    }

    interface Result {
      /** Seconds from start to the last response, rounded to 10 ms. */
      duration: number;
      requests: Histogram;
      /** Milliseconds; only 2xx responses are recorded. */
      latency: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
    }
  }

  /** Without a callback the instance is also a Promise of the result. */
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}

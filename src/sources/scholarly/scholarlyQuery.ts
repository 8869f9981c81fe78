/** One lookup as every bibliographic client receives it. */
export interface ScholarlyQuery {
  readonly text: string;
  readonly limit: number;
  readonly mailto: string | undefined;
  readonly request: {
    readonly capabilityId: string;
    readonly timeoutMs: number;
    readonly signal: AbortSignal;
  };
}

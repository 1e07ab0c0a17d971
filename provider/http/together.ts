/**
 * Independent requests sent at once, so that they cost one round trip in a row instead of one each (a script's
 * variables and its secrets, a script and its live release). The outcome is the one the same requests sent one after
 * another would give: every answer in order, or, when some fail, the first failure in order (a later one is the
 * request that would not have been sent). It settles once every request has: none is left running unobserved, and no
 * failure goes unhandled.
 */
export async function together<T extends readonly unknown[] | []>(requests: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(requests);
  for (const outcome of settled) if (outcome.status === "rejected") throw outcome.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/** A request started now whose outcome is looked at later (or never): its failure is kept, not left unhandled. */
export interface Started<T> {
  /** The answer, or the request's failure thrown. */
  result(): Promise<T>;
  /** Resolves once the request has settled, whatever its outcome. */
  settled(): Promise<void>;
}

export function started<T>(request: Promise<T>): Started<T> {
  const outcome = request.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  return {
    settled: async () => void (await outcome),
    async result() {
      const o = await outcome;
      if ("error" in o) throw o.error;
      return o.value;
    },
  };
}

import type { InputShape, ResourceContext, ResourceDefinition } from "./definition";

/**
 * The look-up after a create whose answer was lost (adoption.ts): rounds of reads, so that a create is never sent
 * again while it is unknown whether it acted.
 */

/** The look-up after a failed create; when it fails too, whether the create happened is unknown, and sending it again could make a duplicate. */
export async function lookUpAfter<Shape extends InputShape, Obj, O extends object>(
  failure: unknown,
  find: () => Promise<Obj | undefined>,
  def: ResourceDefinition<Shape, Obj, O>,
  ctx: ResourceContext,
  rounds: number,
): Promise<Obj | undefined> {
  const lookup = await patiently(find, rounds).then(
    (found) => ({ found }),
    (error: unknown) => ({ error: error as Error }),
  );
  if ("found" in lookup) return lookup.found;
  const next =
    def.ownerMark !== undefined && ctx.owner !== undefined
      ? `Run again: if it was created, it carries this resource's mark and is taken back.`
      : `Run again: if it was created, the run stops on it and says how to take it over.`;
  throw new Error(
    `${(failure as Error).message}; the look-up of whether ${def.type} was created failed too (${lookup.error.message}), so the create was not sent again. ${next}`,
    { cause: failure },
  );
}

/**
 * Rounds of the look-up after a lost create answer: each round is a read with the transport's own retries. When it
 * fails the create is not sent again and the object it may have made is left for the user to adopt, so the next
 * `up` stops on it (issue 36: at 30% faults, a round of six tries failing happened about once in a thousand
 * look-ups, and the stack did not converge until adopted by hand). More rounds, a pause between them, make that rare
 * without ever repeating the create. `maxRetries: 0` asks for no retries: one round then.
 */
const LOOKUP_ROUNDS = 3;
const LOOKUP_PAUSE_MS = 500;

export function lookUpRounds(ctx: ResourceContext): number {
  // A context without a client (a unit test's) gets the default.
  const settings = (ctx as Partial<ResourceContext>).client?.settings;
  return settings?.maxRetries === 0 ? 1 : LOOKUP_ROUNDS;
}

/** `read` until it answers, at most `rounds` times, pausing longer after each failure; the last failure is thrown. */
export async function patiently<T>(read: () => Promise<T>, rounds: number): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await read();
    } catch (e) {
      if (round >= rounds) throw e;
      await new Promise((resolve) => setTimeout(resolve, LOOKUP_PAUSE_MS * round));
    }
  }
}


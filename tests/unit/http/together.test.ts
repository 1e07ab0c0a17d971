import assert from "node:assert/strict";
import { started, together } from "bunnynet-pulumi/dist/http/together.js";

/** A request that stays in flight until the test answers or fails it. */
function held<T>() {
  let answer!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => ((answer = resolve), (fail = reject)));
  return { promise, answer, fail };
}

/** Lets every pending promise callback run (no timers involved). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Fails the test if a rejection goes unhandled while `fn` runs. */
async function withoutUnhandledRejections(fn: () => Promise<void>): Promise<void> {
  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", listener);
  try {
    await fn();
    await settle();
  } finally {
    process.off("unhandledRejection", listener);
  }
  assert.deepEqual(unhandled, []);
}

describe("together: independent requests sent at once", () => {
  it("answers every request, in order, whatever order they finish in", async () => {
    const [a, b] = [held<string>(), held<number>()];
    const both = together([a.promise, b.promise]);
    b.answer(2);
    a.answer("one");
    assert.deepEqual(await both, ["one", 2]);
  });

  it("when both fail, reports the first in order (as if sent one after the other), even if it failed last; nothing goes unhandled", async () => {
    await withoutUnhandledRejections(async () => {
      const [a, b] = [held<string>(), held<string>()];
      const both = together([a.promise, b.promise]);
      b.fail(new Error("second"));
      await settle();
      a.fail(new Error("first"));
      await assert.rejects(both, /first/);
    });
  });

  it("does not settle before every request has: a failure does not leave the others running unobserved", async () => {
    const [a, b] = [held<string>(), held<string>()];
    let done = false;
    const both = together([a.promise, b.promise]).catch(() => undefined).finally(() => (done = true));
    a.fail(new Error("first"));
    await settle();
    assert.equal(done, false);
    b.answer("late");
    await both;
    assert.equal(done, true);
  });

  it("a request started and never looked at leaves no unhandled rejection; looked at, it gives its failure", async () => {
    await withoutUnhandledRejections(async () => {
      const request = held<string>();
      const ignored = started(request.promise);
      request.fail(new Error("refused"));
      await ignored.settled();
      await assert.rejects(ignored.result(), /refused/);
    });
  });
});

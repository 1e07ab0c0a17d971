import assert from "node:assert/strict";
import { generatedThenExecuted } from "../../../bench/support";

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe("bench: steps generated one at a time, executed in parallel workers (the engine's sequence)", () => {
  it("generates one resource at a time and never runs more steps than workers", async () => {
    let generating = 0;
    let maxGenerating = 0;
    let executing = 0;
    let maxExecuting = 0;
    const executed: number[] = [];
    await generatedThenExecuted(
      Array.from({ length: 20 }, (_, i) => i),
      3,
      async (i) => {
        maxGenerating = Math.max(maxGenerating, ++generating);
        await Promise.resolve();
        generating--;
        return i;
      },
      async (step) => {
        maxExecuting = Math.max(maxExecuting, ++executing);
        await tick();
        await tick();
        executing--;
        executed.push(step);
      },
    );
    assert.equal(maxGenerating, 1);
    assert.equal(maxExecuting, 3);
    assert.deepEqual([...executed].sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i));
  });

  it("holds the next generated step while every worker is busy, as the engine's unbuffered hand-over does", async () => {
    const generatedWhileBusy: number[] = [];
    let executing = 0;
    await generatedThenExecuted(
      [0, 1, 2, 3],
      1,
      async (i) => {
        if (executing > 0) generatedWhileBusy.push(i);
        return i;
      },
      async () => {
        executing++;
        await tick();
        executing--;
      },
    );
    // Item 1 is generated while item 0 runs, then waits; item 2 is generated only once item 1 has a worker.
    assert.deepEqual(generatedWhileBusy, [1, 2, 3]);
  });

  it("executes nothing for a resource whose generation found nothing to do", async () => {
    const executed: number[] = [];
    await generatedThenExecuted([1, 2, 3, 4], 2, async (i) => (i % 2 === 0 ? i : undefined), async (step) => void executed.push(step));
    assert.deepEqual(executed.sort(), [2, 4]);
  });

  it("fails with the first step's failure once every started step has ended", async () => {
    let ended = 0;
    await assert.rejects(
      generatedThenExecuted([0, 1, 2], 3, async (i) => i, async (i) => {
        await tick();
        ended++;
        if (i === 0) throw new Error("step 0 failed");
      }),
      /step 0 failed/,
    );
    assert.equal(ended, 3);
  });

  it("a failed generation stops generating and fails once every step already started has ended", async () => {
    let ended = 0;
    const generated: number[] = [];
    await assert.rejects(
      generatedThenExecuted(
        [0, 1, 2, 3],
        4,
        async (i) => {
          if (i === 2) throw new Error("check of 2 failed");
          generated.push(i);
          return i;
        },
        async () => {
          await tick();
          ended++;
        },
      ),
      /check of 2 failed/,
    );
    assert.deepEqual(generated, [0, 1]);
    assert.equal(ended, 2);
  });
});

import assert from "node:assert/strict";
import { goDurationSeconds } from "bunnynet-emulator/dist/testing/programRun.js";

/** The kit reads `customTimeouts` as the engine does (Go's time.ParseDuration), to send them in seconds with the RPCs. */
describe("testing kit: customTimeouts as Go durations", () => {
  it("reads the units Go reads, combined and fractional", () => {
    assert.equal(goDurationSeconds("2m"), 120);
    assert.equal(goDurationSeconds("1h30m"), 5400);
    assert.equal(goDurationSeconds("1.5h"), 5400);
    assert.equal(goDurationSeconds("90s"), 90);
    assert.equal(goDurationSeconds("250ms"), 0.25);
    assert.equal(goDurationSeconds("0"), 0);
  });

  it("refuses what Go refuses, naming it", () => {
    for (const text of ["2", "two minutes", "5d", "m"]) assert.throws(() => goDurationSeconds(text), new RegExp(`invalid duration "${text}"`));
  });
});

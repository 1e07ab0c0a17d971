import assert from "node:assert/strict";
import { FaultConfigSchema, FaultInjector, prng } from "bunnynet-emulator/dist/faults.js";

/** The emulator's "body" drops (issue 36): where they cut, and that they leave the other rules' seeded runs as they were. */
const injector = (rules: unknown[], seed = 3) => {
  const faults = new FaultInjector();
  faults.configure(FaultConfigSchema.parse({ rules, seed }));
  return faults;
};

describe("unit: emulator faults, the body drop", () => {
  it("cuts after the bytes the rule names, else at a seeded share of the body that a second run repeats", () => {
    const named = injector([{ path: "^/tusupload/", method: "PATCH", dropRate: 1, phase: "body", dropAfterBytes: 1234 }]).decide("PATCH", "/tusupload/u");
    assert.deepEqual(named, { kind: "drop", latencyMs: 0, phase: "body", dropAfterBytes: 1234, dropShare: 0 });
    const shares = () => {
      const faults = injector([{ path: "^/tusupload/", dropRate: 1, phase: "body" }]);
      return Array.from({ length: 5 }, () => faults.decide("PATCH", "/tusupload/u")).map((d) => (d.kind === "drop" ? d.dropShare : NaN));
    };
    const first = shares();
    assert.ok(first.every((s) => s >= 0 && s < 1) && new Set(first).size > 1, String(first));
    assert.deepEqual(shares(), first, "the same seed cuts at the same places");
  });

  it("a body drop's share is drawn only for body drops: other rules' seeded decisions are unchanged", () => {
    // One draw of the seeded sequence per decision, as before body drops existed: drop below 0.3, error below 0.6.
    const random = prng(3);
    const expected = Array.from({ length: 50 }, () => {
      const roll = random();
      return roll < 0.3 ? "drop" : roll < 0.6 ? "status" : "none";
    });
    for (const phase of ["before", "after"]) {
      const faults = injector([{ path: "^/pullzone", dropRate: 0.3, errorRate: 0.3, phase }]);
      assert.deepEqual(Array.from({ length: 50 }, () => faults.decide("GET", "/pullzone").kind), expected, phase);
    }
    assert.ok(expected.includes("drop") && expected.includes("status"));
  });

  it("an error status under a body rule is answered after the route, never mid-body", () => {
    const decision = injector([{ errorRate: 1, phase: "body" }]).decide("PATCH", "/tusupload/u");
    assert.equal(decision.kind === "status" && decision.phase, "after");
  });
});

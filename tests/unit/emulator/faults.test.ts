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

/** The emulator's fault rules that mix every kind of failure in one rule (issue 36's faulty up, tests/support/faultyUp.ts). */
describe("unit: emulator fault injection, rateLimitRate and phase \"either\"", () => {
  const decisions = (rule: Record<string, unknown>, n = 4000, seed = 7) => {
    const injector = new FaultInjector();
    injector.configure(FaultConfigSchema.parse({ seed, rules: [rule] }));
    return { all: Array.from({ length: n }, () => injector.decide("POST", "/dnszone")), injected: () => injector.injected };
  };

  it("rateLimitRate answers that share 429 with the rule's Retry-After, always before the route acts", () => {
    const { all, injected } = decisions({ rateLimitRate: 0.25, retryAfterSeconds: 0 });
    const limited = all.filter((d) => d.kind === "status" && d.status === 429);
    assert.ok(limited.length > 900 && limited.length < 1100, `${limited.length} of 4000`);
    assert.ok(limited.every((d) => d.kind === "status" && d.phase === "before" && d.retryAfterSeconds === 0));
    assert.equal(injected(), limited.length);
  });

  it("phase \"either\" puts about half the failures after the route acted and half before, the same for a seed", () => {
    const { all } = decisions({ errorRate: 0.2, dropRate: 0.2, phase: "either" });
    const failed = all.filter((d) => d.kind !== "none");
    const after = failed.filter((d) => "phase" in d && d.phase === "after").length;
    assert.ok(after > failed.length * 0.4 && after < failed.length * 0.6, `${after} of ${failed.length} after`);
    assert.deepEqual(decisions({ errorRate: 0.2, dropRate: 0.2, phase: "either" }).all, all, "seeded");
  });

  it("a rule without either draws the same sequence as before the option existed", () => {
    const { all } = decisions({ errorRate: 0.3, phase: "after" }, 200);
    const failed = all.map((d) => d.kind !== "none");
    // mulberry32 from seed 7, one draw per request: the rule fails exactly the draws under 0.3.
    const roll = prng(7);
    assert.deepEqual(failed, Array.from({ length: 200 }, () => roll() < 0.3));
  });
});

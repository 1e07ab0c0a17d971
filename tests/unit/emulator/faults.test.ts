import assert from "node:assert/strict";
import { FaultConfigSchema, FaultInjector, prng } from "bunnynet-emulator/dist/faults.js";

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

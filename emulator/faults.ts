import { z } from "zod";
import type { FaultConfigInput as PublicFaultConfigInput } from "./publicTypes";
import { ConcurrentWrites, DEFAULT_WINDOW_MS } from "./concurrentWrites";

/**
 * Fault injection, configured over `POST /_emulator/faults`. Each rule applies to the requests whose
 * method and path match; the first matching rule decides. Randomness is seeded so a run can be repeated.
 */
export const FaultRuleSchema = z
  .object({
    /** Regular expression tested against the path (without query); default: every API route. */
    path: z.string().optional(),
    method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).optional(),
    /** Share of matching requests that fail (0..1). */
    errorRate: z.number().min(0).max(1).default(0),
    /** Status the failing requests get: a 5xx or 429. */
    errorStatus: z.number().int().min(400).max(599).default(503),
    /** Share of matching requests whose connection is dropped without an answer. */
    dropRate: z.number().min(0).max(1).default(0),
    /** Share of matching requests answered 429 with Retry-After `retryAfterSeconds` (a refusal: the route never runs). */
    rateLimitRate: z.number().min(0).max(1).default(0),
    /**
     * "before": the request is refused before the route runs; "after": the route acts, then the answer is lost;
     * "either": each failure one or the other, half and half (seeded); "body" (drops only): the connection is cut
     * partway through the request's body (server.ts, preParsing).
     */
    phase: z.enum(["before", "after", "either", "body"]).default("before"),
    /** With phase "body": the bytes of the body that arrive before the cut (default: a seeded random share of its Content-Length). */
    dropAfterBytes: z.number().int().min(0).optional(),
    /** Latency added to every matching request, in ms. */
    latencyMs: z.number().int().min(0).max(60_000).default(0),
    /** The next N matching requests answer 429 with Retry-After, then normal service resumes. */
    burst429: z.number().int().min(0).default(0),
    retryAfterSeconds: z.number().min(0).max(60).default(1),
    /** The first N matching requests pass untouched (e.g. fail only the second page of a listing). */
    skip: z.number().int().min(0).default(0),
    /** The rule applies to at most N requests (after `skip`), then it lets everything pass. */
    times: z.number().int().min(1).optional(),
  })
  .strict();

/** A deployment's length when no test says otherwise: long enough to be seen progressing, short enough not to slow a run. */
export const DEFAULT_APP_DEPLOY_MS = 300;

export const FaultConfigSchema = z
  .object({
    rules: z.array(FaultRuleSchema).default([]),
    seed: z.number().int().default(1),
    /** Two writes to one pull zone (its settings, delete, edge rules), to one Shield zone's WAF rules, or two pull zone creates, that overlap in time: the later one is refused, not stored (concurrentWrites.ts). */
    loseConcurrentWrites: z.boolean().default(false),
    /** How long each write holds its zone while `loseConcurrentWrites` is on, in ms. */
    concurrentWriteWindowMs: z.number().int().min(0).max(5_000).default(DEFAULT_WINDOW_MS),
    /** How long a Magic Containers app's deployment stays `progressing` after a create or a change of its containers, in ms. */
    appDeployMs: z.number().int().min(0).max(600_000).default(DEFAULT_APP_DEPLOY_MS),
    /** Deployments started while this is on end `failing` instead of `active` (containers/apps.ts). */
    failAppDeploys: z.boolean().default(false),
  })
  .strict();


/** A rule with its defaults applied. */
export type AppliedFaultRule = z.output<typeof FaultRuleSchema>;
export type FaultConfig = z.output<typeof FaultConfigSchema>;

/** The public, plain FaultConfigInput (publicTypes.ts) is exactly what the schema takes: this fails to compile otherwise. */
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const publicFaultTypeMatchesSchema: SameType<PublicFaultConfigInput, z.input<typeof FaultConfigSchema>> = true;
void publicFaultTypeMatchesSchema;

export type FaultDecision =
  | { kind: "none"; latencyMs: number }
  | { kind: "status"; status: number; latencyMs: number; retryAfterSeconds?: number; phase: "before" | "after" }
  | { kind: "drop"; latencyMs: number; phase: "before" | "after" | "body"; dropAfterBytes?: number; dropShare: number };

/** mulberry32: a tiny seeded PRNG, so fault runs (and synthetic data) are reproducible. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private rules: (AppliedFaultRule & { regex?: RegExp; burstLeft: number; seen: number; applied: number })[] = [];
  private random: () => number = prng(1);
  injected = 0;
  readonly concurrentWrites = new ConcurrentWrites();
  /** Magic Containers deployments: how long one progresses, and whether it ends failing. */
  appDeploys = { ms: DEFAULT_APP_DEPLOY_MS, fail: false };

  configure(config: FaultConfig): void {
    this.rules = config.rules.map((r) => ({ ...r, regex: r.path ? new RegExp(r.path) : undefined, burstLeft: r.burst429, seen: 0, applied: 0 }));
    this.random = prng(config.seed);
    this.injected = 0;
    this.concurrentWrites.configure(config);
    this.appDeploys = { ms: config.appDeployMs, fail: config.failAppDeploys };
  }

  clear(): void {
    this.configure(FaultConfigSchema.parse({}));
  }

  describe(): unknown {
    return this.rules.map(({ regex: _r, seen: _s, applied: _a, ...rest }) => rest);
  }

  decide(method: string, path: string): FaultDecision {
    const rule = this.rules.find((r) => (!r.method || r.method === method) && (!r.regex || r.regex.test(path)));
    if (!rule) return { kind: "none", latencyMs: 0 };
    if (++rule.seen <= rule.skip) return { kind: "none", latencyMs: 0 };
    if (rule.times !== undefined && rule.applied >= rule.times) return { kind: "none", latencyMs: 0 };
    rule.applied++;
    const latencyMs = rule.latencyMs;
    if (rule.burstLeft > 0) {
      rule.burstLeft--;
      this.injected++;
      return { kind: "status", status: 429, latencyMs, retryAfterSeconds: rule.retryAfterSeconds, phase: "before" };
    }
    const roll = this.random();
    // A second draw only for an "either" rule: the sequence a seed gives the other rules stays what it was.
    const phase = rule.phase === "either" ? (this.random() < 0.5 ? "before" : "after") : rule.phase;
    if (roll < rule.dropRate) {
      this.injected++;
      // Where a "body" drop cuts when the rule names no byte count: a share of the body, from the seeded sequence (drawn
      // only then, so the other rules' sequences are as before).
      const dropShare = phase === "body" && rule.dropAfterBytes === undefined ? this.random() : 0;
      return { kind: "drop", latencyMs, phase, dropAfterBytes: rule.dropAfterBytes, dropShare };
    }
    if (roll < rule.dropRate + rule.errorRate) {
      this.injected++;
      const retryAfterSeconds = rule.errorStatus === 429 ? rule.retryAfterSeconds : undefined;
      // A 429 is a refusal: the server never acts on a rate-limited request. An error is answered before or after the
      // route, never mid-body ("body" is for drops): there it counts as "after".
      return { kind: "status", status: rule.errorStatus, latencyMs, retryAfterSeconds, phase: rule.errorStatus === 429 ? "before" : phase === "body" ? "after" : phase };
    }
    if (roll < rule.dropRate + rule.errorRate + rule.rateLimitRate) {
      this.injected++;
      return { kind: "status", status: 429, latencyMs, retryAfterSeconds: rule.retryAfterSeconds, phase: "before" };
    }
    return { kind: "none", latencyMs };
  }
}

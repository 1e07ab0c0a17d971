import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";
import type { FaultConfigInput } from "bunnynet-emulator";
import type { RequestLogEntry } from "bunnynet-emulator/dist/requestLog.js";
import { stackConfigFor } from "bunnynet-emulator/dist/testing/stackConfig.js";
import type { Store } from "bunnynet-emulator/dist/store.js";
import type { TestEmulator } from "./emulator";
import { ProgramHarness } from "./programHarness";
import type { ProviderHost } from "./providerHost";

/**
 * Issue 36, "faults that still leave an object behind", measured: an `up` of a hundred resources of most kinds
 * against the emulator while a share of the API requests fail in every way the emulator can fail them (5xx and
 * dropped connections before the server acted and after it, the answer lost; 429 with Retry-After), then as many
 * further `up`s under the same faults as it takes for one to succeed (a failed step leaves the stack to the next `up`,
 * as with `pulumi up`), then an `up` without faults that must change nothing, then `destroy` (under faults, again as
 * many times as it takes), and what the account holds is compared with what it held before: no object made twice, none
 * left behind. Used by tests/reliability/faultyUp.test.ts and bench/faultyUp.ts.
 *
 * The objects are read from the emulator's own store (every row of the account's store that was not there before),
 * not through the API, so nothing the API does not list (or lists under another object) escapes the count.
 */

/** Five groups of twenty: each a small site. */
export const GROUPS = 5;

/** The stack: `GROUPS` × 20 resources, names unique to `prefix` (storage and pull zone names are account-wide). */
export function faultyProgram(prefix: string) {
  return () => {
    for (let g = 0; g < GROUPS; g++) {
      const p = `${prefix}-${g}`;
      const zone = new bunnynet.DnsZone(`zone-${g}`, { domain: `${p}.faulty.example` });
      for (let i = 0; i < 3; i++) new bunnynet.DnsRecord(`txt-${g}-${i}`, { dnsZoneId: zone.dnsZoneId, type: "TXT", name: `t${i}`, value: `v=${p}-${i}` });
      const storage = new bunnynet.StorageZone(`files-${g}`, { name: `${p}-files`, region: "DE" });
      const cdn = new bunnynet.PullZone(`cdn-${g}`, { name: `${p}-cdn`, origin: { storageZoneId: storage.storageZoneId } });
      for (let i = 0; i < 2; i++) new bunnynet.PullZoneHostname(`host-${g}-${i}`, { pullZoneId: cdn.pullZoneId, hostname: `h${i}.${p}.faulty.example` });
      new bunnynet.EdgeRule(`rule-${g}`, {
        pullZoneId: cdn.pullZoneId,
        description: `${p} headers`,
        actions: [{ type: "SetResponseHeader", parameters: ["X-Group", p] }],
        triggers: [{ type: "Url", patterns: ["*"] }],
      });
      const shield = new bunnynet.ShieldZone(`shield-${g}`, { pullZoneId: cdn.pullZoneId });
      for (let i = 0; i < 2; i++)
        new bunnynet.RateLimitRule(`limit-${g}-${i}`, {
          shieldZoneId: shield.shieldZoneId,
          name: `${p} limit ${i}`,
          configuration: { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: `/l${i}`, requestCount: 10, timeframe: "PerOneMinute", blockTime: "ForOneMinute" },
        });
      new bunnynet.AccessList(`blocked-${g}`, { shieldZoneId: shield.shieldZoneId, name: `${p} blocked`, type: "Country", entries: ["KP"], action: "Block" });
      const script = new bunnynet.EdgeScript(`script-${g}`, { name: `${p}-edge`, type: "Standalone", code: `export default { fetch: () => new Response("${p}") };\n` });
      for (let i = 0; i < 2; i++) new bunnynet.ScriptVariable(`var-${g}-${i}`, { scriptId: script.scriptId, name: `V${i}`, defaultValue: p });
      const library = new bunnynet.VideoLibrary(`videos-${g}`, { name: `${p}-videos` });
      for (let i = 0; i < 2; i++) new bunnynet.StreamCollection(`collection-${g}-${i}`, { libraryId: library.libraryId, name: `${p} collection ${i}` });
      // Fetched by the API from a URL (the emulator makes it without fetching): no file upload.
      new bunnynet.StreamVideo(`video-${g}`, { libraryId: library.libraryId, title: `${p} intro`, source: { url: `https://media.example.com/${p}.mp4` }, encodeTimeoutSeconds: 60 });
    }
    return { groups: pulumi.output(GROUPS) };
  };
}

/** `rate` of the requests fail: a quarter 429, 45% a 5xx, 30% a dropped connection; the 5xx and drops half before the server acted, half after (its answer lost). */
export function faultsAt(rate: number, seed: number): FaultConfigInput {
  return { seed, rules: [{ errorRate: rate * 0.45, errorStatus: 503, dropRate: rate * 0.3, rateLimitRate: rate * 0.25, retryAfterSeconds: 0, phase: "either" }] };
}

export interface FaultyUpFigures {
  resources: number;
  errorRate: number;
  seed: number;
  requests: number;
  faults: number;
  /** Failed requests sent again as the same request (method and URL): the transport's retries. */
  retries: number;
  /** `up`s under faults until one succeeded (the first included). */
  upsToConverge: number;
  /** `destroy`s under faults until one succeeded. */
  destroysToFinish: number;
  /** Objects of the stack's kinds in the account beyond one per resource, after the `up`s. */
  duplicates: number;
  /** Where they are, by kind. */
  duplicateKinds: Record<string, number>;
  /** Objects made by the run that are still in the account after destroy, by kind. */
  orphans: number;
  orphanKinds: Record<string, number>;
  /** What the `up` without faults after convergence did that was not "same". */
  changesAfterConverging: string[];
  /** Kinds with fewer objects than the stack's resources make (a resource in state whose object is not there). */
  missing: string[];
  seconds: number;
}

/**
 * The objects of the account, as `kind/id`: every row of the store, and the parts kept inside a row that are objects
 * of their own in the API (a pull zone's custom hostnames and edge rules, a script's variables), as `kind.Part/id`.
 * Rows of the emulator's own bookkeeping are left out: `shieldRateLimitDeleted` remembers a deleted rule's id so that
 * a read of it answers as bunny.net does (emulator/surfaces/shield.ts).
 */
function objects(store: Store): Set<string> {
  const all = store.db.prepare("SELECT kind, id, data FROM objects WHERE kind <> 'shieldRateLimitDeleted'").all() as { kind: string; id: string; data: string }[];
  const out = new Set<string>();
  for (const r of all) {
    out.add(`${r.kind}/${r.id}`);
    if (r.kind !== "pullzone" && r.kind !== "edgescript") continue;
    const data = JSON.parse(r.data) as Record<string, { Id?: unknown; Guid?: unknown; Value?: string; IsSystemHostname?: boolean }[] | undefined>;
    for (const part of ["Hostnames", "EdgeRules", "EdgeScriptVariables"]) {
      for (const p of data[part] ?? []) if (!p.IsSystemHostname) out.add(`${r.kind}.${part}/${String(p.Id ?? p.Guid)}`);
    }
  }
  return out;
}

/**
 * What each resource type makes one of (an EdgeScript also makes a pull zone: bunny.net links one to each script; a
 * VideoLibrary too: each library has a pull zone of its own, emulator/surfaces/videoLibraries.ts).
 */
const MADE_BY: Record<string, string[]> = {
  DnsZone: ["dnszone"],
  DnsRecord: ["dnsrecord"],
  StorageZone: ["storagezone"],
  PullZone: ["pullzone"],
  PullZoneHostname: ["pullzone.Hostnames"],
  EdgeRule: ["pullzone.EdgeRules"],
  ShieldZone: ["shieldZone"],
  RateLimitRule: ["shieldRateLimit"],
  AccessList: ["shieldAccessList"],
  EdgeScript: ["edgescript", "pullzone"],
  ScriptVariable: ["edgescript.EdgeScriptVariables"],
  VideoLibrary: ["videolibrary", "pullzone"],
  StreamCollection: ["videocollection"],
  StreamVideo: ["video"],
};

const countBy = (keys: string[]) => {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
};

export interface FaultyUpOptions {
  emu: TestEmulator;
  host: ProviderHost;
  errorRate: number;
  seed: number;
  /** Give up after this many `up`s (or `destroy`s) under faults. */
  maxRuns?: number;
  log?: (line: string) => void;
}

/** Runs the whole cycle in an account of its own and measures it. */
export async function faultyUp({ emu, host, errorRate, seed, maxRuns = 10, log = () => {} }: FaultyUpOptions): Promise<FaultyUpFigures> {
  const started = performance.now();
  const { accessKey } = await emu.addAccount();
  const store = emu.emulator.accounts.stores().at(-1)!;
  const before = objects(store);
  const prefix = `f${Math.round(errorRate * 100)}s${seed}`;
  const program = faultyProgram(prefix);
  const harness = new ProgramHarness({ project: "faulty-up", stack: prefix, config: stackConfigFor(emu.url, accessKey), secretConfig: ["bunnynet:apiKey"], providerHost: host });
  const log_: RequestLogEntry[] = [];
  let injected = 0;
  const underFaults = async (what: string, run: () => Promise<unknown>, n: number) => {
    await emu.faults(faultsAt(errorRate, seed * 100 + n));
    await emu.markRequests();
    try {
      await run();
      return true;
    } catch (e) {
      log(`${what} ${n} failed (the next one goes on): ${String((e as Error).message).split("\n").slice(0, 3).join(" | ")}`);
      return false;
    } finally {
      // The injector's count: a connection dropped after the route acted is not in the request log.
      injected += emu.emulator.ctx.faults.injected;
      await emu.clearFaults();
      log_.push(...(await emu.requests()));
    }
  };

  let ups = 0;
  for (let done = false; !done; ) {
    if (++ups > maxRuns) throw new Error(`no up succeeded in ${maxRuns} under ${errorRate * 100}% faults (seed ${seed})`);
    done = await underFaults("up", () => harness.up(program), ups);
  }
  const converged = await harness.up(program);
  const changesAfterConverging = converged.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.urn.split("::").pop()}`);

  const state = harness.resources().filter((r) => r.id && r.type !== "pulumi:providers:bunnynet");
  const made = [...objects(store)].filter((r) => !before.has(r));
  const madeByKind = countBy(made.map((r) => r.split("/")[0]));
  // One object per resource of each kind the stack's types make; any more of that kind is a duplicate.
  const resourcesByType = countBy(state.map((r) => r.type.split(":").pop()!));
  const expected: Record<string, number> = {};
  for (const [type, n] of Object.entries(resourcesByType)) for (const kind of MADE_BY[type] ?? []) expected[kind] = (expected[kind] ?? 0) + n;
  const duplicateKinds: Record<string, number> = {};
  for (const [kind, n] of Object.entries(expected)) if ((madeByKind[kind] ?? 0) > n) duplicateKinds[kind] = madeByKind[kind] - n;

  let destroys = 0;
  for (let done = false; !done; ) {
    if (++destroys > maxRuns) throw new Error(`no destroy succeeded in ${maxRuns} under ${errorRate * 100}% faults (seed ${seed})`);
    done = await underFaults("destroy", () => harness.destroy(), destroys);
  }
  const left = [...objects(store)].filter((r) => !before.has(r));
  const orphanKinds = countBy(left.map((r) => r.split("/")[0]));

  const faulted = log_.filter((e) => e.fault !== undefined);
  return {
    resources: state.length,
    errorRate,
    seed,
    requests: log_.length,
    faults: injected,
    retries: faulted.filter((f) => log_.some((e) => e.seq > f.seq && e.method === f.method && e.url === f.url)).length,
    upsToConverge: ups,
    destroysToFinish: destroys,
    duplicates: Object.values(duplicateKinds).reduce((a, b) => a + b, 0),
    duplicateKinds,
    orphans: left.length,
    orphanKinds,
    changesAfterConverging,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    missing: Object.entries(expected).filter(([kind, n]) => (madeByKind[kind] ?? 0) < n).map(([kind, n]) => `${kind}: ${madeByKind[kind] ?? 0} of ${n}`),
  };
}

/** One line of figures, as the test and the bench print them. */
export function describeFaultyUp(f: FaultyUpFigures): string {
  const kinds = (k: Record<string, number>) => (Object.keys(k).length ? ` (${Object.entries(k).map(([kind, n]) => `${n} ${kind}`).join(", ")})` : "");
  return (
    `${f.resources} resources at ${f.errorRate * 100}% (seed ${f.seed}): ${f.requests} requests, ${f.faults} faults injected, ${f.retries} retried; ` +
    `${f.upsToConverge} up(s) to converge, ${f.destroysToFinish} destroy(s); ${f.duplicates} duplicates${kinds(f.duplicateKinds)}, ${f.orphans} orphans${kinds(f.orphanKinds)}; ${f.seconds} s`
  );
}

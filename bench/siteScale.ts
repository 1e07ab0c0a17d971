import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { type ProviderHost, secret } from "../tests/support/providerHost";
import { measurePhase } from "./pluginPhase";
import { type FloorTrips, admin, floorRoundTrips, generatedThenExecuted, printTable, spawnEmulator, type EmulatorProcess } from "./support";

/**
 * An account of S whole sites built from zero (issue 22), about 96 resources each: per site a DNS zone with 30 TXT
 * records, a storage zone, a pull zone on it with 20 hostnames, a Shield zone with 10 rate-limit rules, an edge script
 * with 30 variables, and a video library. Deployed, re-deployed unchanged, refreshed and destroyed through the SDK's
 * provider host with the RPCs the engine sends (see scale.ts for the engine's sequence and its default parallelism),
 * as the engine sends them: Check (and Diff) one resource at a time in the step generator's loop, Create and Delete
 * in `parallel` workers (`generatedThenExecuted` in support.ts, citing the engine's lines), level by level as the
 * engine orders them by their dependencies (a child waits for its parent's outputs; destroy goes the other way),
 * against the emulator with added latency on every API call.
 *
 * The provider sends the writes the API is shown to lose when they overlap one at a time per zone (a pull zone's
 * settings, delete, edge rules and optimizer classes; a Shield zone's WAF rules: provider/http/zoneWrites.ts), so a
 * level's floor is also at least one zone's serialised writes in a row (`floorRoundTrips`), with the zone each
 * resource's create and delete write to (`zones`). Of these sites' resources only the pull zone's create (the
 * account's creates, one at a time) and delete are: hostnames, the Shield zone and its rate-limit rules are not
 * serialised (the evidence is in zoneWrites.ts).
 * The floor of a level: latency × max(the most round trips one resource needs, ⌈all its round trips ÷ parallel⌉),
 * with the round trips each type needs at the floor (FLOOR); a phase's floor is the sum over its levels.
 * `CPU floor ms` is the other bound: the CPU time of the plugin, this harness (the engine's stand-in) and the emulator
 * (the API's stand-in) during the phase, divided by the machine's cores they share. In a real deployment only the
 * plugin's share runs here (the engine is Go, the API remote); `wall/higher floor` sets the wall time against the higher of
 * the two.
 *
 * `node dist/bench/siteScale.js [S=10] [--latency 20] [--parallel 4×CPUs] [--levels]` (`--levels`: each level's wall time
 * and floor as it ends)
 */

type Props = Record<string, unknown>;
export interface Resource {
  type: string;
  name: string;
  level: number;
  /** The inputs, from the outputs of the resources it depends on. */
  props: (outputsOf: (name: string) => Props) => Props;
  /** The zone its create's and its delete's write goes to, where the provider serialises it (zoneWrites.ts). */
  zones?: { create?: string; delete?: string };
  id?: string;
  inputs?: Props;
  outputs?: Props;
}

/**
 * Round trips in a row of a create at the floor: one call, plus the reads the API forces (a look-up where it does not
 * refuse duplicates, a read-back where its answer lacks the object, and for a rule the zone read again after the
 * create, so that of two stacks creating one name at once one rule stays). Independent reads go at once and count
 * once (http/together.ts; a refusal read with the look-up: `beforeCreate`, pulumi/adoption.ts):
 * - EdgeScript 4: the look-up by name, the create, the publish (it needs the script's id), and the live release read
 *   after it (the publish answers 204 without it: edge-scripting-api-v1.0.0.json PublishEdgeScriptReleaseEndpoint_Publish).
 * - ScriptVariable 2: the look-up (the script's variables) and the script's secrets (a name cannot be both) at once,
 *   then the add (was 3: the secrets were read after the look-up).
 * - RateLimitRule 3: the look-up, the create, the read-back; each needs the one before it.
 * - VideoLibrary, DnsRecord, ShieldZone 2: the look-up, then the create; PullZoneHostname 2: the add, then the read-back.
 */
export const FLOOR: Record<string, number> = {
  DnsZone: 1,
  StorageZone: 1,
  EdgeScript: 4,
  VideoLibrary: 2,
  PullZone: 1,
  ScriptVariable: 2,
  DnsRecord: 2,
  ShieldZone: 2,
  PullZoneHostname: 2,
  RateLimitRule: 3,
};
const RULE = { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", requestCount: 10, timeframe: "PerOneMinute", blockTime: "ForOneMinute" };

export function site(i: number): Resource[] {
  const n = (what: string) => `s${i}-${what}`;
  const pullZone = `pullzone:s${i}`;
  const range = (count: number) => Array.from({ length: count }, (_, j) => j);
  return [
    { type: "DnsZone", name: n("zone"), level: 0, props: () => ({ domain: `site${i}.bench.example` }) },
    { type: "StorageZone", name: n("files"), level: 0, props: () => ({ name: n("files"), region: "DE" }) },
    { type: "EdgeScript", name: n("edge"), level: 0, props: () => ({ name: n("edge"), type: "Middleware", code: "export default {}" }) },
    { type: "VideoLibrary", name: n("videos"), level: 0, props: () => ({ name: n("videos") }) },
    { type: "PullZone", name: n("cdn"), level: 1, zones: { create: "pullzone:creates", delete: pullZone }, props: (o) => ({ name: n("cdn"), origin: { storageZoneId: o(n("files")).storageZoneId } }) },
    ...range(30).map((j): Resource => ({ type: "ScriptVariable", name: n(`var${j}`), level: 1, props: (o) => ({ scriptId: o(n("edge")).scriptId, name: `VAR_${j}`, defaultValue: "x" }) })),
    ...range(30).map((j): Resource => ({ type: "DnsRecord", name: n(`txt${j}`), level: 1, props: (o) => ({ dnsZoneId: o(n("zone")).dnsZoneId, type: "TXT", name: `t${j}`, value: `v${j}` }) })),
    { type: "ShieldZone", name: n("shield"), level: 2, props: (o) => ({ pullZoneId: o(n("cdn")).pullZoneId, planType: "Advanced" }) },
    ...range(20).map((j): Resource => ({ type: "PullZoneHostname", name: n(`host${j}`), level: 2, props: (o) => ({ pullZoneId: o(n("cdn")).pullZoneId, hostname: `h${j}.site${i}.other.example` }) })),
    ...range(10).map((j): Resource => ({ type: "RateLimitRule", name: n(`rule${j}`), level: 3, props: (o) => ({ shieldZoneId: o(n("shield")).shieldZoneId, name: `rule ${j}`, configuration: RULE }) })),
  ];
}

export function levels(resources: Resource[], reverse = false): Resource[][] {
  const max = Math.max(...resources.map((r) => r.level));
  const byLevel = Array.from({ length: max + 1 }, (_, l) => resources.filter((r) => r.level === l));
  return reverse ? byLevel.reverse() : byLevel;
}

export function floorMs(resources: Resource[], roundTrips: (r: Resource) => FloorTrips, latencyMs: number, parallel: number, reverse = false): number {
  return levels(resources, reverse).reduce((sum, level) => sum + latencyMs * floorRoundTrips(level.map(roundTrips), parallel), 0);
}

/** A create's or delete's round trips at the floor, with its one write to its zone where it has one. */
export const withZone = (trips: number, zone: string | undefined): FloorTrips => ({ trips, zone, writes: zone === undefined ? 0 : 1 });

/**
 * A phase's RPCs for one resource, sent as the engine sends them: `generate` in the step generator's one loop (Check,
 * Diff), then `execute` by one of the step executor's `parallel` workers (`generatedThenExecuted` in support.ts); a
 * phase of deletes or reads only has `execute`, run by the workers.
 */
interface Phase {
  name: string;
  reverse?: boolean;
  floorOf?: (r: Resource) => FloorTrips;
  generate?(host: ProviderHost, r: Resource, outputsOf: (name: string) => Props): Promise<Props | undefined>;
  execute?(host: ProviderHost, r: Resource, generated: Props): Promise<void>;
}

const PHASES: Phase[] = [
  {
    name: "deploy",
    floorOf: (r) => withZone(FLOOR[r.type], r.zones?.create),
    async generate(host, r, outputsOf) {
      const checked = await host.check(r.type, {}, r.props(outputsOf), r.name);
      if (checked.failures.length > 0) throw new Error(`${r.name}: ${JSON.stringify(checked.failures)}`);
      return checked.inputs;
    },
    async execute(host, r, inputs) {
      const created = await host.create(r.type, inputs, r.name);
      Object.assign(r, { id: created.id, inputs, outputs: created.outputs });
    },
  },
  {
    name: "up, no change",
    floorOf: () => ({ trips: 0 }),
    async generate(host, r) {
      const checked = await host.check(r.type, r.inputs!, r.inputs!, r.name);
      const diff = await host.diff(r.type, r.id!, r.outputs!, checked.inputs, r.inputs!, r.name);
      if (diff.changes !== "none") throw new Error(`${r.type} ${r.name}: a no-change deployment found changes`);
      return undefined;
    },
  },
  {
    name: "refresh",
    async execute(host, r) {
      const read = await host.read(r.type, r.id!, r.outputs!, r.inputs!, r.name);
      if (read.id !== r.id) throw new Error(`${r.type} ${r.name}: refresh lost it`);
    },
  },
  {
    name: "destroy",
    reverse: true,
    floorOf: (r) => withZone(1, r.zones?.delete),
    async execute(host, r) {
      await host.delete(r.type, r.id!, r.outputs!, r.inputs!, r.name);
    },
  },
];

export async function benchSiteScale(options: { sites: number; latencyMs: number; parallel: number; showLevels?: boolean }) {
  const { sites, latencyMs, parallel, showLevels = false } = options;
  const emu: EmulatorProcess = await spawnEmulator();
  const config = { "bunnynet:apiKey": secret(emu.accessKey), "bunnynet:apiUrl": emu.url };
  const resources = Array.from({ length: sites }, (_, i) => site(i)).flat();
  const byName = new Map(resources.map((r) => [r.name, r]));
  const outputsOf = (name: string) => byName.get(name)?.outputs ?? {};
  const rows: Record<string, string | number>[] = [];
  try {
    await admin(emu, "POST", "/_emulator/faults", { rules: [{ latencyMs }] });
    for (const phase of PHASES) {
      const cost = await measurePhase(
        emu,
        config,
        (host) => host.check("DnsZone", {}, { domain: "warm-up.example" }, "warm-up"),
        async (host) => {
          let wall = 0;
          for (const level of levels(resources, phase.reverse)) {
            const w = await generatedThenExecuted(
              level,
              parallel,
              (r) => (phase.generate ? phase.generate(host, r, outputsOf) : Promise.resolve({})),
              (generated, r) => phase.execute?.(host, r, generated) ?? Promise.resolve(),
            );
            if (showLevels && phase.floorOf) console.log(`${phase.name}, level of ${level.length}: wall ${Math.round(w)} ms, floor ${latencyMs * floorRoundTrips(level.map(phase.floorOf), parallel)} ms`);
            wall += w;
          }
          return wall;
        },
      );
      const floor = phase.floorOf ? floorMs(resources, phase.floorOf, latencyMs, parallel, phase.reverse) : 0;
      const cpuFloor = (cost.pluginCpuMs + cost.harnessCpuMs + cost.emulatorCpuMs) / availableParallelism();
      rows.push({
        phase: phase.name,
        resources: resources.length,
        "API calls": cost.calls,
        "calls/resource": cost.calls / resources.length,
        "wall ms": Math.round(cost.wallMs),
        "floor ms": floor || "-",
        "wall/floor": floor > 0 ? cost.wallMs / floor : "-",
        "plugin CPU ms/resource": cost.pluginCpuMs / resources.length,
        "harness CPU ms/resource": cost.harnessCpuMs / resources.length,
        "emulator CPU ms/resource": cost.emulatorCpuMs / resources.length,
        "CPU floor ms": Math.round(cpuFloor),
        "wall/higher floor": floor > 0 ? cost.wallMs / Math.max(floor, cpuFloor) : "-",
        "plugin peak MB": cost.pluginPeakMb,
      });
    }
  } finally {
    await emu.stop();
  }
  return rows;
}

if (require.main === module) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { latency: { type: "string", default: "20" }, parallel: { type: "string" }, levels: { type: "boolean", default: false } } });
  const sites = Number(positionals[0] ?? 10);
  const latencyMs = Number(values.latency);
  const parallel = Number(values.parallel ?? 4 * availableParallelism());
  benchSiteScale({ sites, latencyMs, parallel, showLevels: values.levels }).then(
    (rows) => printTable(`Sites from zero: ${sites} sites, ${latencyMs} ms added per API call; parallel ${parallel} (the engine's default here)`, rows),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}

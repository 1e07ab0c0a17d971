import { availableParallelism } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type ProviderHost, secret } from "../tests/support/providerHost";
import { measurePhase } from "./pluginPhase";
import { type FloorTrips, admin, floorRoundTrips, generatedThenExecuted, printTable, spawnEmulator, type EmulatorProcess } from "./support";

/**
 * A stack of N resources (40% hostnames, 40% script variables, 20% rate-limit rules, spread over 4 pull zones,
 * 4 scripts and 4 shield zones) deployed, changed, re-deployed unchanged, refreshed and destroyed through the SDK's
 * provider host, against the emulator with added latency on every API call. Each phase is a new plugin process,
 * as each `pulumi` command is, sending the RPCs the engine sends:
 * - deploy: Check, then Create (no Diff for a new resource);
 * - change and no-change `up`: Check, then Diff, then Update when Diff reports changes;
 * - refresh: Read; destroy: Delete.
 * (pulumi/pulumi at 1a16857a, pkg/resource/deploy/step_generator.go: `generateSteps` calls `prov.Check`, then
 * `sg.diff` → the provider's Diff for a resource with old state, and only a Diff with changes makes an UpdateStep.)
 * Check and Diff run in the step generator's one loop, one resource at a time; the steps (Create, Update, Read,
 * Delete) in the step executor's `parallel` workers (`generatedThenExecuted` in support.ts, with the engine's lines).
 *
 * Parallelism is the engine's default, `--parallel` unset: 4 × GOMAXPROCS, i.e. 4 × the CPUs
 * (pulumi/pulumi at 00043847, pkg/cmd/pulumi/operations/up.go, `defaultParallel`, line 62:
 * `int32(runtime.GOMAXPROCS(0)) * 4`; the engine runs at most that many steps at once).
 *
 * The floor of a phase is the time its sequentially dependent round trips need, packed into `parallel` lanes with
 * nothing else costing anything: latency × max(longest chain, ⌈total round trips ÷ parallel⌉, the writes to one zone
 * one after another), see `floorRoundTrips` (the provider sends only the writes the API is shown to lose one at a time
 * per zone, provider/http/zoneWrites.ts: none of this program's). Round trips per resource: a create of a hostname 2 (the API refuses a duplicate,
 * so no look-up first, but the add answers without the hostname's id, so the zone is read after it); of a rule 3
 * (nothing documents that the API refuses a duplicate name, so the zone's rules are looked up first, and read again
 * after the create, so that of two stacks creating one name at once one rule stays); of a variable 2 (the same
 * look-up, with the script's secrets read at the same time, as a name cannot be both: `beforeCreate`,
 * provider/pulumi/adoption.ts; then the add); an update 1; a delete 1; a refresh one read
 * per parent. The writes among them: a hostname's or rule's create, update and delete, one each.
 *
 * `wall/server` sets the wall time against the emulator's own time for the phase's requests (latency included),
 * packed the same way: on a loaded machine the emulator is slower than the floor assumes, and this ratio is what
 * the provider, the SDK's host and gRPC add. `plugin CPU ms/resource` is the plugin process's CPU time.
 *
 * `node dist/bench/scale.js [N=500] [--quick (N=100)] [--latency 50] [--parallel 4×CPUs]`
 */

const PARENTS = 4;
const RULE_CONFIGURATION = { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", requestCount: 10, timeframe: "PerOneMinute", blockTime: "ForOneMinute" };

interface Resource {
  type: "PullZoneHostname" | "ScriptVariable" | "RateLimitRule";
  name: string;
  props: Record<string, unknown>;
  /** Round trips of its create and update at the floor. */
  floor: { create: number; update: number };
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

function stack(n: number, fixtures: Record<string, string | number>): Resource[] {
  const ids = (key: string) => String(fixtures[key]).split(",").map(Number);
  const [zones, scripts, shieldZones] = [ids("scalePullZoneIds"), ids("scaleScriptIds"), ids("scaleShieldZoneIds")];
  const hostnames = Math.round(n * 0.4);
  const variables = Math.round(n * 0.4);
  const rules = n - hostnames - variables;
  return [
    ...Array.from({ length: hostnames }, (_, i): Resource => ({
      type: "PullZoneHostname",
      name: `h${i}`,
      props: { pullZoneId: zones[i % PARENTS], hostname: `h${i}.scale.example` },
      floor: { create: 2, update: 0 },
    })),
    ...Array.from({ length: variables }, (_, i): Resource => ({
      type: "ScriptVariable",
      name: `v${i}`,
      props: { scriptId: scripts[i % PARENTS], name: `SCALE_${i}`, defaultValue: "one" },
      floor: { create: 2, update: 1 },
    })),
    ...Array.from({ length: rules }, (_, i): Resource => ({
      type: "RateLimitRule",
      name: `r${i}`,
      props: { shieldZoneId: shieldZones[i % PARENTS], name: `scale rule ${i}`, configuration: { ...RULE_CONFIGURATION, value: `/r${i}` } },
      floor: { create: 3, update: 1 },
    })),
  ];
}

/** The program's second version: every variable and rule changes in place; hostnames stay. */
function changed(r: Resource): Record<string, unknown> {
  if (r.type === "ScriptVariable") return { ...r.props, defaultValue: "two" };
  if (r.type === "RateLimitRule") return { ...r.props, configuration: { ...(r.props.configuration as object), requestCount: 20 } };
  return r.props;
}

/** The emulator's own time for the phase's requests (injected latency included), packed into the lanes like the floor. */
async function serverTime(emu: EmulatorProcess, since: number, parallel: number): Promise<number> {
  const log = (await admin(emu, "GET", `/_emulator/requests?since=${since}`)) as { requests: { durationMs: number }[] };
  const durations = log.requests.map((r) => r.durationMs);
  return Math.max(0, ...durations, durations.reduce((a, b) => a + b, 0) / parallel);
}

interface Phase {
  name: string;
  /** Round trips at the floor for one resource, with its writes to its zone. */
  floorOf(r: Resource): FloorTrips;
  /** Round trips at the floor for the whole phase that are not per resource (a refresh's parent reads). */
  sharedFloor?: number;
  /** The step generator's RPCs (Check, Diff), one resource at a time; the step's, if any, go to `execute`. */
  generate?(host: ProviderHost, r: Resource): Promise<Props | undefined>;
  /** The step executor's RPCs (Create, Update, Read, Delete), in `parallel` workers (support.ts, generatedThenExecuted). */
  execute?(host: ProviderHost, r: Resource, generated: Props): Promise<void>;
}

type Props = Record<string, unknown>;

export async function benchScale(options: { count: number; latencyMs: number; parallel: number }) {
  const { count, latencyMs, parallel } = options;
  const rulesPerZone = Math.ceil(count / PARENTS) + 5;
  const emu: EmulatorProcess = await spawnEmulator(["--parents", String(PARENTS), "--rules-per-zone", String(rulesPerZone)], join(__dirname, "scaleEmulator.js"));
  const config = { "bunnynet:apiKey": secret(emu.accessKey), "bunnynet:apiUrl": emu.url };
  const resources = stack(count, emu.fixtures);
  const rows: Record<string, string | number>[] = [];

  const phases: Phase[] = [
    {
      name: "deploy",
      floorOf: (r) => ({ trips: r.floor.create }),
      async generate(host, r) {
        return (await host.check(r.type, {}, r.props, r.name)).inputs;
      },
      async execute(host, r, inputs) {
        const created = await host.create(r.type, inputs, r.name);
        Object.assign(r, { id: created.id, inputs, outputs: created.outputs });
      },
    },
    {
      name: "change",
      floorOf: (r) => ({ trips: r.floor.update }),
      async generate(host, r) {
        const checked = await host.check(r.type, r.inputs!, changed(r), r.name);
        const diff = await host.diff(r.type, r.id!, r.outputs!, checked.inputs, r.inputs!, r.name);
        if (diff.changes === "none") {
          r.inputs = checked.inputs;
          return undefined;
        }
        return checked.inputs;
      },
      async execute(host, r, inputs) {
        r.outputs = await host.update(r.type, r.id!, r.outputs!, inputs, r.inputs!, r.name);
        r.inputs = inputs;
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
      floorOf: () => ({ trips: 0 }),
      sharedFloor: 3 * PARENTS,
      async execute(host, r) {
        const read = await host.read(r.type, r.id!, r.outputs!, r.inputs!, r.name);
        if (read.id !== r.id) throw new Error(`${r.type} ${r.name}: refresh lost it`);
      },
    },
    {
      name: "destroy",
      floorOf: () => ({ trips: 1 }),
      async execute(host, r) {
        await host.delete(r.type, r.id!, r.outputs!, r.inputs!, r.name);
      },
    },
  ];

  try {
    await admin(emu, "POST", "/_emulator/faults", { rules: [{ latencyMs }] });
    for (const phase of phases) {
      const cost = await measurePhase(
        emu,
        config,
        (host) => host.check(resources[0].type, {}, resources[0].props, "warm-up"),
        (host) =>
          generatedThenExecuted(
            resources,
            parallel,
            (r) => (phase.generate ? phase.generate(host, r) : Promise.resolve({})),
            (generated, r) => phase.execute?.(host, r, generated) ?? Promise.resolve(),
          ),
      );
      const wall = cost.wallMs;
      const server = await serverTime(emu, cost.since, parallel);
      const floor = latencyMs * floorRoundTrips(resources.map(phase.floorOf), parallel, phase.sharedFloor);
      rows.push({
        phase: phase.name,
        resources: resources.length,
        "API calls": cost.calls,
        "calls/resource": cost.calls / resources.length,
        "wall ms": Math.round(wall),
        "floor ms": floor,
        "wall/floor": floor > 0 ? wall / floor : "-",
        "wall/server": server > 0 ? wall / server : "-",
        "plugin CPU ms/resource": cost.pluginCpuMs / resources.length,
        "plugin peak MB": cost.pluginPeakMb,
      });
    }
  } finally {
    await emu.stop();
  }
  return rows;
}

if (require.main === module) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { quick: { type: "boolean", default: false }, latency: { type: "string", default: "50" }, parallel: { type: "string" } },
  });
  const count = Number(positionals[0] ?? (values.quick ? 100 : 500));
  const latencyMs = Number(values.latency);
  const parallel = Number(values.parallel ?? 4 * availableParallelism());
  benchScale({ count, latencyMs, parallel }).then(
    (rows) => printTable(`Scale: ${count} resources over ${PARENTS} zones, scripts and shield zones; ${latencyMs} ms added per API call; parallel ${parallel} (the engine's default here)`, rows),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}

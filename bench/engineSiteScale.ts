import { readdirSync, readFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { compiledProject, PulumiCliStack, pulumiCliUnavailable, pulumiCliVersion } from "../tests/support/pulumiCli";
import { cpuMs } from "./pluginPhase";
import { FLOOR, floorMs, site, withZone } from "./siteScale";
import { admin, countRequests, printTable, spawnEmulator, type EmulatorProcess } from "./support";

/**
 * Issue 34's performance table: the account of bench/siteScale.ts (S sites, about 96 resources each) deployed,
 * re-deployed unchanged, refreshed and destroyed by the real Pulumi CLI (tools/pulumi-cli) against the emulator with
 * latency added to every API call, then the same graph declared with a provider that makes no API call and does no
 * work (bench/programs/siteScaleProgram.ts, `noop`), so the engine's own cost is measured beside ours.
 *
 * Per phase: wall time of the command; the API-round-trip floor (siteScale.ts's: level by level, the round trips each
 * type needs at the floor packed into `--parallel` lanes; the engine does not wait for a whole level, so its true floor
 * may be a little lower); API calls; CPU time of each process, sampled from /proc every 100 ms over the command's
 * process tree (the engine: `pulumi`; the language host: `pulumi-language-nodejs`; the program: the node process the
 * host starts on the SDK's cmd/run; our plugin: the dynamic-provider node process the engine starts) plus the
 * emulator's; and the plugin's peak memory
 * (VmHWM). A process's CPU after its last sample is missed (at most 100 ms of it). Linux only.
 *
 * The engine saves the whole state after every step on a file backend, unless PULUMI_SKIP_CHECKPOINTS is set (then only
 * at the end: sdk/go/common/env/env.go `SkipCheckpoints`, pkg/backend/snapshot.go `unsafeServiceLoop`, pulumi/pulumi
 * #10668): `--skip-checkpoints` measures that too.
 *
 * `node dist/bench/engineSiteScale.js [S=10] [--latency 20] [--parallel N (default: the engine's, 4 × GOMAXPROCS)]
 * [--skip-checkpoints] [--only bunnynet|noop]`
 */

interface Sample {
  kind: string;
  cpuMs: number;
  peakMb: number;
}

/** The kind of a process of the command's tree, from its command line. */
function kindOf(cmdline: string[]): string {
  const program = cmdline[0] ?? "";
  if (program.endsWith("pulumi-language-nodejs")) return "host";
  if (cmdline.some((a) => /[/\\]cmd[/\\]run([/\\]|$)/.test(a))) return "program";
  if (cmdline.some((a) => a.includes("dynamic-provider"))) return "plugin";
  if (program.endsWith("/pulumi") || program === "pulumi") return "engine";
  return "other";
}

/** Samples the CPU time and peak memory of `root` and its descendants every 100 ms until stopped. */
function sampleTree(root: number): () => Map<number, Sample> {
  const seen = new Map<number, Sample>();
  const tick = () => {
    const parents = new Map<number, number>();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      } catch {
        // Gone between the listing and the read.
      }
    }
    const inTree = (pid: number): boolean => {
      for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parents.get(p), hops++) if (p === root) return true;
      return false;
    };
    for (const pid of parents.keys()) {
      if (!inTree(pid)) continue;
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
        const kb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
        const cpu = cpuMs(pid);
        const before = seen.get(pid);
        // Classified on every sample that has a command line (a process forked by the host is the host's until it
        // execs node; an exiting one has none, and keeps what it was).
        const kind = cmdline.length > 0 ? kindOf(cmdline) : (before?.kind ?? "other");
        seen.set(pid, { kind, cpuMs: Math.max(before?.cpuMs ?? 0, Number.isNaN(cpu) ? 0 : cpu), peakMb: Math.max(before?.peakMb ?? 0, kb / 1024) });
      } catch {
        // Exited meanwhile: its last sample stands.
      }
    }
  };
  tick();
  const timer = setInterval(tick, 100);
  return () => {
    clearInterval(timer);
    return seen;
  };
}

const PHASES = [
  { name: "deploy", args: ["up", "--yes", "--skip-preview"], floor: true },
  { name: "up, no change", args: ["up", "--yes", "--skip-preview"], floor: false },
  { name: "refresh", args: ["refresh", "--yes", "--skip-preview"], floor: false },
  { name: "destroy", args: ["destroy", "--yes", "--skip-preview"], floor: true },
];

async function runPhases(stack: PulumiCliStack, emu: EmulatorProcess, label: string, parallel: number | undefined, floors: Record<string, number>, resources: number): Promise<Record<string, string | number>[]> {
  const rows: Record<string, string | number>[] = [];
  for (const phase of PHASES) {
    const since = (await countRequests(emu, Number.MAX_SAFE_INTEGER)).last;
    const emulatorBefore = cpuMs(emu.child.pid);
    const started = performance.now();
    let stop: (() => Map<number, Sample>) | undefined;
    const result = await stack.attempt([...phase.args, ...(parallel ? ["--parallel", String(parallel)] : [])], true, (child) => {
      if (child.pid !== undefined) stop = sampleTree(child.pid);
    });
    const wallMs = performance.now() - started;
    const samples = stop?.() ?? new Map<number, Sample>();
    if (result.status !== 0) throw new Error(`${label} ${phase.name}: pulumi exited ${result.status}\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`);
    const cpuOf = (kind: string) => [...samples.values()].filter((s) => s.kind === kind).reduce((sum, s) => sum + s.cpuMs, 0);
    const floor = phase.floor ? floors[phase.name] : 0;
    rows.push({
      run: label,
      phase: phase.name,
      resources,
      "API calls": (await countRequests(emu, since)).count,
      "wall ms": Math.round(wallMs),
      "floor ms": floor || "-",
      "wall/floor": floor ? wallMs / floor : "-",
      "engine CPU ms": cpuOf("engine"),
      "host CPU ms": cpuOf("host"),
      "program CPU ms": cpuOf("program"),
      "plugin CPU ms": cpuOf("plugin"),
      "emulator CPU ms": cpuMs(emu.child.pid) - emulatorBefore,
      "plugin peak MB": Math.round(Math.max(0, ...[...samples.values()].filter((s) => s.kind === "plugin").map((s) => s.peakMb))),
    });
  }
  return rows;
}

export async function benchEngineSiteScale(options: { sites: number; latencyMs: number; parallel?: number; skipCheckpoints?: boolean; providers?: ("bunnynet" | "noop")[] }): Promise<Record<string, string | number>[]> {
  const { sites, latencyMs, parallel, skipCheckpoints = false, providers = ["bunnynet", "noop"] } = options;
  const lanes = parallel ?? 4 * Number(process.env.GOMAXPROCS ?? (await import("node:os")).availableParallelism());
  const resources = Array.from({ length: sites }, (_, i) => site(i)).flat();
  const floors = {
    deploy: floorMs(resources, (r) => withZone(FLOOR[r.type], r.zones?.create), latencyMs, lanes),
    destroy: floorMs(resources, (r) => withZone(1, r.zones?.delete), latencyMs, lanes, true),
  };
  const work = mkdtempSync(join(tmpdir(), "bunnynet-engine-bench-"));
  const emu = await spawnEmulator();
  const rows: Record<string, string | number>[] = [];
  try {
    await admin(emu, "POST", "/_emulator/faults", { rules: [{ latencyMs }] });
    const projectDir = compiledProject("engine-site-scale", "bunnynet-site-scale", "bench/programs/siteScaleProgram.js");
    for (const noop of providers.map((p) => p === "noop")) {
      const env = skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {};
      const stack = new PulumiCliStack(`${noop ? "noop" : "sites"}-${process.pid}`, join(work, "state"), projectDir, env);
      await stack.init({ "bunnynet:apiKey": emu.accessKey, "bunnynet:apiUrl": emu.url, "bunnynet-site-scale:sites": String(sites), "bunnynet-site-scale:noop": String(noop) }, ["bunnynet:apiKey"]);
      try {
        rows.push(...(await runPhases(stack, emu, noop ? "no-op provider" : "bunnynet", parallel, noop ? {} : floors, resources.length)));
      } finally {
        await stack.remove();
      }
    }
  } finally {
    await emu.stop();
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}

if (require.main === module) {
  const reason = pulumiCliUnavailable();
  if (reason) {
    console.log(`engineSiteScale: skipped: ${reason}`);
  } else {
    const { values, positionals } = parseArgs({
      allowPositionals: true,
      options: { latency: { type: "string", default: "20" }, parallel: { type: "string" }, "skip-checkpoints": { type: "boolean", default: false }, only: { type: "string" } },
    });
    if (values.only !== undefined && values.only !== "bunnynet" && values.only !== "noop") throw new Error(`--only takes bunnynet or noop, not ${values.only}`);
    const sites = Number(positionals[0] ?? 10);
    const latencyMs = Number(values.latency);
    const parallel = values.parallel === undefined ? undefined : Number(values.parallel);
    const skipCheckpoints = values["skip-checkpoints"];
    benchEngineSiteScale({ sites, latencyMs, parallel, skipCheckpoints, providers: values.only ? [values.only] : undefined }).then(
      (rows) =>
        printTable(
          `The real engine (pulumi ${pulumiCliVersion()}): ${sites} sites, ${latencyMs} ms added per API call, --parallel ${parallel ?? "default (4 × GOMAXPROCS)"}${skipCheckpoints ? ", PULUMI_SKIP_CHECKPOINTS" : ""}`,
          rows,
        ),
      (e: unknown) => {
        process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
        process.exitCode = 1;
      },
    );
  }
}

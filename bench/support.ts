import { spawn, type ChildProcess } from "node:child_process";
import { request } from "undici";

/** The compiled emulator entry point (benchmarks run from dist/bench). */
export const EMULATOR_MAIN = require.resolve("bunnynet-emulator/dist/main.js");

export interface EmulatorProcess {
  url: string;
  accessKey: string;
  fixtures: Record<string, string | number>;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the emulator in its own process (so load generation does not share its event loop); `main` may be a variant of it. */
export async function spawnEmulator(extraArgs: string[] = ["--data", ":memory:"], main = EMULATOR_MAIN): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, [main, "--port", "0", ...extraArgs], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  const res = await request(`${url}/_emulator/fixtures`);
  const fixtures = (await res.body.json()) as Record<string, string | number>;
  return {
    url,
    accessKey: String(fixtures.accessKey),
    fixtures,
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Runs `fn` over `items` with at most `concurrency` at once (the engine's `--parallel`); resolves to the wall time in ms. */
export async function pooled<T>(items: T[], concurrency: number, fn: (item: T, index: number) => Promise<void>): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
  return performance.now() - started;
}

/**
 * How the engine runs an `up`'s registrations: ONE loop generates each resource's steps in turn (the step generator
 * calls the provider's Check, and Diff for a resource with old state, inline: pulumi/pulumi at 1b59498,
 * pkg/resource/deploy/step_generator.go `generateSteps` lines 1313–1340, called from deployment_executor.go
 * `handleSingleEvent` line 615, one event at a time from the loop at lines 278–310), and hands the steps to the step
 * executor, whose `parallel` workers execute them (Create, Update). The hand-over blocks while every worker is busy:
 * `incomingChains` is an unbuffered channel (step_executor.go lines 144–160 and 734; one worker per degree of
 * parallelism, lines 760 on). So Check and Diff run one at a time, outside the `--parallel` lanes, overlapping the
 * workers' steps; `execute` is left out when generating found nothing to do (a SameStep calls no provider).
 * Resolves to the wall time in ms; the first failure fails the whole (after every started step has ended).
 */
export async function generatedThenExecuted<T, S>(
  items: T[],
  parallel: number,
  generate: (item: T) => Promise<S | undefined>,
  execute: (step: S, item: T) => Promise<void>,
): Promise<number> {
  const started = performance.now();
  let free = parallel;
  let workerFreed: (() => void) | undefined;
  const running: Promise<void>[] = [];
  let failure: { error: unknown } | undefined;
  for (const item of items) {
    if (failure) break;
    let step: S | undefined;
    try {
      step = await generate(item);
    } catch (error) {
      failure ??= { error };
      break;
    }
    if (step === undefined) continue;
    while (free === 0) await new Promise<void>((resolve) => (workerFreed = resolve));
    free--;
    running.push(
      execute(step, item)
        .catch((error: unknown) => void (failure ??= { error }))
        .finally(() => {
          free++;
          workerFreed?.();
          workerFreed = undefined;
        }),
    );
  }
  await Promise.all(running);
  if (failure) throw failure.error;
  return performance.now() - started;
}

/** One operation at the floor: its round trips, and how many of them are writes to its zone (`pullzone:<id>`, `shieldzone:<id>`). */
export interface FloorTrips {
  trips: number;
  zone?: string;
  writes?: number;
}

/**
 * The fewest round trips operations sent together need (times the latency, a floor): the most one operation needs,
 * all of them packed into `parallel` lanes (plus `shared` trips not owed to one operation), and each zone's writes
 * one after another, as the provider sends them (provider/http/zoneWrites.ts), with the reads one of them makes
 * around its write.
 */
export function floorRoundTrips(ops: FloorTrips[], parallel: number, shared = 0): number {
  const longest = Math.max(0, shared > 0 ? 1 : 0, ...ops.map((o) => o.trips));
  const packed = Math.ceil((ops.reduce((sum, o) => sum + o.trips, 0) + shared) / parallel);
  const zones = new Map<string, { writes: number; around: number }>();
  for (const { zone, writes = 0, trips } of ops) {
    if (zone === undefined || writes === 0) continue;
    const z = zones.get(zone) ?? { writes: 0, around: 0 };
    zones.set(zone, { writes: z.writes + writes, around: Math.max(z.around, trips - writes) });
  }
  const serial = Math.max(0, ...[...zones.values()].map((z) => z.writes + z.around));
  return Math.max(longest, packed, serial);
}

/** Calls an admin route of the emulator (`/_emulator/...`). */
export async function admin(emu: EmulatorProcess, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(emu.url + path, { method, headers: body ? { "content-type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined });
  return res.json();
}

/** How many API requests the emulator served since `since`, and the newest sequence number. */
export async function countRequests(emu: EmulatorProcess, since: number): Promise<{ count: number; last: number }> {
  const log = (await admin(emu, "GET", `/_emulator/requests?since=${since}`)) as { lastSeq: number; requests: unknown[] };
  return { count: log.requests.length, last: log.lastSeq };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Prints rows as an aligned table. */
export function printTable(title: string, rows: Record<string, string | number>[]): void {
  if (rows.length === 0) return;
  const headers = Object.keys(rows[0]);
  const text = (v: string | number) => (typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : v);
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((r) => text(r[h] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  console.log(`\n${title}`);
  console.log(line(headers));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const r of rows) console.log(line(headers.map((h) => text(r[h] ?? ""))));
}

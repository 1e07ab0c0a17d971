import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { request } from "undici";

/** The compiled emulator entry point (benchmarks run from dist/bench). */
export const EMULATOR_MAIN = join(__dirname, "..", "emulator", "main.js");

export interface EmulatorProcess {
  url: string;
  accessKey: string;
  fixtures: Record<string, string | number>;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the emulator in its own process (so load generation does not share its event loop). */
export async function spawnEmulator(extraArgs: string[] = []): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, [EMULATOR_MAIN, "--port", "0", "--data", ":memory:", ...extraArgs], { stdio: ["ignore", "pipe", "inherit"] });
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

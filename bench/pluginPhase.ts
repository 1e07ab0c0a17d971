import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ProviderHost } from "../tests/support/providerHost";
import { countRequests, type EmulatorProcess } from "./support";

/**
 * One `pulumi` command as the benchmarks measure it: a new plugin process (as each command starts one), configured,
 * warmed up (loading the package is start-up, not the phase), then the phase's RPCs; what it cost in API calls, wall
 * time, and the plugin's CPU time and peak memory (read from /proc: Linux only).
 */
export interface PhaseCost {
  calls: number;
  /** Sequence number of the emulator's request log before the phase (for its own time). */
  since: number;
  wallMs: number;
  pluginCpuMs: number;
  pluginPeakMb: number | string;
}

export async function measurePhase(
  emu: EmulatorProcess,
  config: Parameters<ProviderHost["configure"]>[0],
  warmUp: (host: ProviderHost) => Promise<unknown>,
  run: (host: ProviderHost) => Promise<number>,
): Promise<PhaseCost> {
  const host = await ProviderHost.start();
  try {
    await host.configure(config);
    await warmUp(host);
    const since = (await countRequests(emu, Number.MAX_SAFE_INTEGER)).last;
    const cpuBefore = cpuMs(host);
    const wallMs = await run(host);
    const pluginCpuMs = cpuMs(host) - cpuBefore;
    const calls = (await countRequests(emu, since)).count;
    return { calls, since, wallMs, pluginCpuMs, pluginPeakMb: peakMemoryMb(host) };
  } finally {
    await host.stop();
  }
}

/** The plugin process's peak resident memory (VmHWM) in MB. */
function peakMemoryMb(host: ProviderHost): number | string {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(join("/proc", String(host.pid), "status"), "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : "n/a";
  } catch {
    return "n/a";
  }
}

/** CPU time the plugin process has used, in ms (user + system; Linux clock ticks of 10 ms). */
function cpuMs(host: ProviderHost): number {
  try {
    const fields = readFileSync(join("/proc", String(host.pid), "stat"), "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

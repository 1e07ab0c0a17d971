import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ProviderHost } from "../tests/support/providerHost";
import { countRequests, type EmulatorProcess } from "./support";

/**
 * One `pulumi` command as the benchmarks measure it: a new plugin process (as each command starts one), configured,
 * warmed up (loading the package is start-up, not the phase), then the phase's RPCs; what it cost in API calls, wall
 * time, the plugin's CPU time and peak memory, and the CPU time of the two other processes on the machine: this
 * harness (standing in for the engine) and the emulator (standing in for the API). All three share the machine's
 * cores, so their CPU time divided by the cores is a second floor beside the API's latency (read from /proc: Linux
 * only).
 */
export interface PhaseCost {
  calls: number;
  /** Sequence number of the emulator's request log before the phase (for its own time). */
  since: number;
  wallMs: number;
  pluginCpuMs: number;
  pluginPeakMb: number | string;
  /** CPU time of this process (the harness, the engine's stand-in) during the phase. */
  harnessCpuMs: number;
  /** CPU time of the emulator process during the phase. */
  emulatorCpuMs: number;
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
    const [pluginBefore, emulatorBefore, harnessBefore] = [cpuMs(host.pid), cpuMs(emu.child.pid), process.cpuUsage()];
    const wallMs = await run(host);
    const pluginCpuMs = cpuMs(host.pid) - pluginBefore;
    const emulatorCpuMs = cpuMs(emu.child.pid) - emulatorBefore;
    const harness = process.cpuUsage(harnessBefore);
    const calls = (await countRequests(emu, since)).count;
    return { calls, since, wallMs, pluginCpuMs, pluginPeakMb: peakMemoryMb(host), harnessCpuMs: (harness.user + harness.system) / 1000, emulatorCpuMs };
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

/** CPU time a process has used, in ms (user + system; Linux clock ticks of 10 ms). */
export function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(join("/proc", String(pid), "stat"), "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

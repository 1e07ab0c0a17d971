import { readFileSync, writeFileSync } from "node:fs";

/**
 * Another process's memory as Linux reports it in /proc/<pid>/status: the resident set now (VmRSS) and its peak
 * (VmHWM). Writing 5 to /proc/<pid>/clear_refs sets the peak back to the current resident set (proc(5)), so the
 * peak of one phase of a long-lived process (the provider host during one upload) can be read on its own.
 * Undefined where /proc is not there (not Linux) or the process is gone.
 */

export interface ProcessMemory {
  rssMb: number;
  peakMb: number;
}

export function processMemory(pid: number | undefined): ProcessMemory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);
    const [rss, peak] = [kb("VmRSS"), kb("VmHWM")];
    return Number.isFinite(rss) && Number.isFinite(peak) ? { rssMb: rss / 1024, peakMb: peak / 1024 } : undefined;
  } catch {
    return undefined;
  }
}

/** Sets the process's peak back to its resident set now; false when that cannot be done (not Linux, not ours). */
export function resetPeakMemory(pid: number | undefined): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

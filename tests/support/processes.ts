import { existsSync, readFileSync, readdirSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * A process and every process under it (the CLI's plugins and language hosts, through their shell scripts), the
 * process first, from Linux's /proc. Read before any kill: once a process is gone its children are adopted by init
 * (or a subreaper) and no longer found under it.
 */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = parentOf(Number(entry));
    // Undefined: the process ended meanwhile.
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const tree: number[] = [];
  const walk = (pid: number) => {
    tree.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return tree;
}

/** The parent of a running process, or undefined once it is gone. */
export function parentOf(pid: number): number | undefined {
  try {
    // The parent pid is the fourth field, after the command name in parentheses (which may hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** The command line of a running process (its arguments joined by spaces), or "" once it is gone. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** Whether `pid` has ended: gone, or a zombie no one has reaped yet (an orphan's reaper may be slow to, or never). */
export function hasEnded(pid: number): boolean {
  if (existsSync("/proc")) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
    } catch {
      return true;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/** How long `pid` took to end from now, in ms, waiting at most `limitMs` (then undefined). */
export async function msUntilEnded(pid: number, limitMs: number): Promise<number | undefined> {
  const start = Date.now();
  while (Date.now() - start < limitMs) {
    if (hasEnded(pid)) return Date.now() - start;
    await sleep(25);
  }
  return undefined;
}

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { percentile, printTable } from "./support";

/** Cold start of the package: a fresh Node process that requires it by name, measured from inside (require only). */
export function benchColdImport(runs = 7) {
  const root = join(__dirname, "..", "..");
  const script = `const t=process.hrtime.bigint();require("pulumi-bunnynet");process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))`;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(Number(execFileSync(process.execPath, ["-e", script], { cwd: root, encoding: "utf8" })));
  times.sort((a, b) => a - b);
  return { what: 'require("pulumi-bunnynet")', runs, "median ms": percentile(times, 50), "min ms": times[0], "max ms": times[times.length - 1] };
}

if (require.main === module) printTable("Cold import", [benchColdImport()]);

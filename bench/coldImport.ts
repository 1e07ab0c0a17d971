import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { percentile, printTable } from "./support";

/**
 * Cold start: a fresh Node process requiring a module by name, timed from inside (require only). The package
 * loads @pulumi/pulumi (its resources are Pulumi resources), so the SDK alone is measured too, as the floor;
 * the command-line tool's modules do not load the SDK.
 */
export function benchColdImport(runs = 7) {
  const root = join(__dirname, "..", "..");
  const time = (what: string, request: string) => {
    const script = `const t=process.hrtime.bigint();require(${JSON.stringify(request)});process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))`;
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(Number(execFileSync(process.execPath, ["-e", script], { cwd: root, encoding: "utf8" })));
    times.sort((a, b) => a - b);
    return { what, runs, "median ms": percentile(times, 50), "min ms": times[0], "max ms": times[times.length - 1] };
  };
  return [
    time('require("bunnynet-pulumi")', "bunnynet-pulumi"),
    time('require("@pulumi/pulumi") alone', "@pulumi/pulumi"),
    time("the CLI's commands (no SDK)", "bunnynet-pulumi/dist/cli/commands/index.js"),
  ];
}

if (require.main === module) printTable("Cold import", benchColdImport());

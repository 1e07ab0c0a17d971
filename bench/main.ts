import { spawnSync } from "node:child_process";
import { join } from "node:path";

/**
 * `npm run bench`: every benchmark, each in its own process so none warms or loads the others, printing
 * one table each. `npm run bench -- --quick` uses smaller sizes (a 200 MB log file, 50 and 100 resources).
 */
const quick = process.argv.includes("--quick");

const runs: [script: string, args: string[]][] = [
  ["coldImport.js", []],
  ["pluginStart.js", [quick ? "3" : "10"]],
  ["emulatorThroughput.js", [quick ? "2" : "5"]],
  ["emulatorRequestCpu.js", [quick ? "100" : "300"]],
  ["registration.js", [quick ? "100" : "500"]],
  ["providerOverhead.js", [quick ? "50" : "200"]],
  ["hostnameReadBack.js", ["20"]],
  ["scale.js", [quick ? "100" : "500"]],
  ["siteScale.js", [quick ? "2" : "10"]],
  ["engineSiteScale.js", [quick ? "1" : "10"]],
  ["handlerCpu.js", [quick ? "2" : "10"]],
  ["storageFolder.js", [quick ? "100" : "500"]],
  ["logsV1Parse.js", [quick ? "200" : "1024"]],
  ["videoUpload.js", [quick ? "64" : "256"]],
  ["tusUpload.js", [quick ? "--size-mb=64" : "--size-mb=1024"]],
  ["exportAccount.js", [quick ? "200" : "1000"]],
  ["explicitProviders.js", [quick ? "20" : "40"]],
  ["emulatorAddScale.js", quick ? ["--sizes", "100,1000"] : []],
  ["faultyUp.js", quick ? ["--seeds", "1"] : []],
];

let failed = 0;
for (const [script, args] of runs) {
  const result = spawnSync(process.execPath, [join(__dirname, script), ...args], { stdio: "inherit" });
  if (result.status !== 0) {
    failed++;
    process.stderr.write(`bench ${script} failed (exit ${result.status ?? result.signal})\n`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;

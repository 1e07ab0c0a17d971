import { parseArgs } from "node:util";
import { startEmulator } from "../tests/support/emulator";
import { describeFaultyUp, faultyUp } from "../tests/support/faultyUp";
import { ProviderHost } from "../tests/support/providerHost";

/**
 * Issue 36, "faults that still leave an object behind", measured: the stack of tests/support/faultyUp.ts (100
 * resources of 14 kinds) deployed through the testing kit's engine and the SDK's provider host while a share of the
 * API requests fail (a quarter 429, the rest 5xx and dropped connections, half before the server acted and half
 * after it, the answer lost), `up` again until one succeeds, an `up` without faults, then destroyed under the same
 * faults. Printed per error rate and seed: resources, error rate, requests, injected faults, retries (failed
 * requests sent again as the same request), ups needed to converge, destroys, duplicates, orphans, time.
 *
 * Each `up` or `destroy` that failed is printed with its first error (the next one goes on).
 *
 * `node dist/bench/faultyUp.js [--rates 0.15,0.3] [--seeds 1,2,3]`
 */
async function main() {
  const { values } = parseArgs({ options: { rates: { type: "string", default: "0.15,0.3" }, seeds: { type: "string", default: "1,2,3" } } });
  const rates = values.rates.split(",").map(Number);
  const seeds = values.seeds.split(",").map(Number);
  const emu = await startEmulator();
  const rows: string[][] = [];
  try {
    for (const errorRate of rates) {
      for (const seed of seeds) {
        const host = await ProviderHost.start({ project: "faulty-up" });
        try {
          const f = await faultyUp({ emu, host, errorRate, seed, log: (line) => console.log(`  ${line.slice(0, 600)}`) });
          console.log(describeFaultyUp(f));
          rows.push([f.resources, `${errorRate * 100}%`, seed, f.requests, f.faults, f.retries, f.upsToConverge, f.destroysToFinish, f.duplicates, f.orphans, f.seconds].map(String));
        } finally {
          await host.stop();
        }
      }
    }
  } finally {
    await emu.stop();
  }
  console.log("\n| resources | error rate | seed | requests | injected faults | retries | ups to converge | destroys | duplicates | orphans | time s |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

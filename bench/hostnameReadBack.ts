import { ProviderHost, secret } from "../tests/support/providerHost";
import { admin, countRequests, floorRoundTrips, pooled, printTable, spawnEmulator } from "./support";

/**
 * Hostnames added to one pull zone at once: API calls and wall time of N PullZoneHostname creates (tls "none")
 * through the SDK's provider host, at the engine's default parallelism on this machine (4 × CPUs, see scale.ts),
 * with added latency on every API call. A create is one add plus the read-back of the zone the add forces (it answers
 * 204 without the hostname's id): 2 calls each at worst; reads of the zone that wait for the adds in flight are
 * shared (provider/http/sharedReads.ts), so the floor is N adds plus about N ÷ parallelism reads. The adds go at
 * the engine's parallelism (adding a hostname is not a write the API is shown to lose, provider/http/zoneWrites.ts):
 * the wall time's floor is the round trips packed into the lanes (`floorRoundTrips`).
 *
 * `node dist/bench/hostnameReadBack.js [N=20] [--latency 50] [--parallel 8]`
 */

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const count = Number(args.find((a) => /^\d+$/.test(a)) ?? 20);
  const option = (name: string, fallback: number) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  const latencyMs = option("latency", 50);
  const parallel = option("parallel", 8);
  const emu = await spawnEmulator();
  const host = await ProviderHost.start();
  try {
    await host.configure({ "bunnynet:apiKey": secret(emu.accessKey), "bunnynet:apiUrl": emu.url });
    const pullZoneId = Number(emu.fixtures.pullZoneId);
    await admin(emu, "POST", "/_emulator/faults", { rules: [{ path: "^/pullzone", latencyMs }] });
    const names = Array.from({ length: count }, (_, i) => `bench-${i}.readback.example`);
    const mark = (await countRequests(emu, Number.MAX_SAFE_INTEGER)).last;
    const wall = await pooled(names, parallel, async (hostname, i) => {
      const checked = await host.check("PullZoneHostname", {}, { pullZoneId, hostname }, `h${i}`);
      await host.create("PullZoneHostname", checked.inputs, `h${i}`);
    });
    const calls = (await countRequests(emu, mark)).count;
    const floorCalls = count + Math.ceil(count / parallel);
    printTable(`Hostnames created at once on one pull zone (latency ${latencyMs} ms, parallel ${parallel})`, [
      { hostnames: count, "API calls": calls, "calls/hostname": (calls / count).toFixed(2), "floor calls": floorCalls, "wall ms": Math.round(wall), "floor ms": floorRoundTrips(Array.from({ length: count }, () => ({ trips: 2 })), parallel) * latencyMs },
    ]);
  } finally {
    await host.stop();
    await emu.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});

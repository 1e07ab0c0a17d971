import { parseArgs } from "node:util";
import { createEmulator } from "bunnynet-emulator/dist/server.js";
import { createPullZone } from "bunnynet-emulator/dist/surfaces/pullZones.js";

/**
 * Issue 36: the time of one add against the size of the account, in the emulator's own process (fastify's `inject`,
 * no socket): a pull zone hostname add (`POST /pullzone/{id}/addHostname`, which refuses a hostname any zone of the
 * account holds) and a DNS record add (`PUT /dnszone/{id}/records`), each timed over `--adds` adds (spread over the zones) into an account
 * already holding N pull zones with a custom hostname each and N DNS zones with a record each. An add that scans the
 * account grows with N; an indexed one does not.
 *
 * `node dist/bench/emulatorAddScale.js [--sizes 100,5000] [--adds 200]`
 */
async function main() {
  const { values } = parseArgs({ options: { sizes: { type: "string", default: "100,5000" }, adds: { type: "string", default: "200" } } });
  const sizes = values.sizes.split(",").map(Number);
  const adds = Number(values.adds);
  console.log("| existing pull zones and DNS zones | hostname add µs | DNS record add µs |");
  console.log("|---|---|---|");
  for (const n of sizes) {
    const emulator = createEmulator({ dataPath: ":memory:" });
    await emulator.app.ready();
    const headers = { AccessKey: String(emulator.ctx.fixtures().accessKey), "content-type": "application/json" };
    const call = async (method: "POST" | "PUT", url: string, payload: unknown) => {
      const res = await emulator.app.inject({ method, url, headers, payload: JSON.stringify(payload) });
      if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode}: ${res.body}`);
      return res.body ? (JSON.parse(res.body) as { Id: number }) : undefined;
    };
    const zoneIds: number[] = [];
    const dnsZoneIds: number[] = [];
    for (let i = 0; i < n; i++) {
      const zoneId = createPullZone(emulator.ctx, `add-scale-${i}`).Id;
      await call("POST", `/pullzone/${zoneId}/addHostname`, { Hostname: `h${i}.add-scale.example` });
      const dnsZoneId = (await call("POST", "/dnszone", { Domain: `z${i}.add-scale.example` }))!.Id;
      await call("PUT", `/dnszone/${dnsZoneId}/records`, { Type: 3, Name: "seed", Value: "seed" });
      zoneIds.push(zoneId);
      dnsZoneIds.push(dnsZoneId);
    }
    // Spread over the zones, so no one zone grows with the adds (an add reads and writes its own zone).
    const zoneId = (i: number) => zoneIds[(i + zoneIds.length * 100) % zoneIds.length];
    const dnsZoneId = (i: number) => dnsZoneIds[(i + dnsZoneIds.length * 100) % dnsZoneIds.length];
    const time = async (add: (i: number) => Promise<unknown>) => {
      for (let i = 0; i < 20; i++) await add(-1 - i); // warm-up
      const started = performance.now();
      for (let i = 0; i < adds; i++) await add(i);
      return Math.round(((performance.now() - started) * 1000) / adds);
    };
    const hostname = await time((i) => call("POST", `/pullzone/${zoneId(i)}/addHostname`, { Hostname: `new${i}.add-scale.example` }));
    const record = await time((i) => call("PUT", `/dnszone/${dnsZoneId(i)}/records`, { Type: 3, Name: `new${i}`, Value: "x" }));
    console.log(`| ${n} | ${hostname} | ${record} |`);
    await emulator.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

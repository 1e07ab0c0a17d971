import { parseArgs } from "node:util";
import { Pool } from "undici";
import { cpuMs } from "./pluginPhase";
import { EMULATOR_MAIN, printTable, spawnEmulator } from "./support";

/**
 * The emulator's own CPU per request (read from /proc, Linux) over a mix of what a deploy sends: per round a DNS zone
 * created, four records added, the zone read; a pull zone created, a hostname added, the zone read and deleted; the DNS
 * zone deleted (11 requests), eight rounds at a time on keep-alive connections from a second process. A first pass of
 * the same size warms the emulator up and is not counted. CPU time, unlike wall time, holds when the machine is busy.
 *
 * `node dist/bench/emulatorRequestCpu.js [rounds=300] [--main path/to/emulator/dist/main.js]` (`--main`: another build
 * of the emulator, to compare two back to back)
 */
export async function benchEmulatorRequestCpu(rounds: number, main = EMULATOR_MAIN) {
  const emu = await spawnEmulator(["--data", ":memory:"], main);
  const pool = new Pool(new URL(emu.url).origin, { connections: 8 });
  const failures = new Map<string, number>();
  let requests = 0;
  const send = async (method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<{ Id: number } | undefined> => {
    const res = await pool.request({
      method,
      path,
      headers: { accesskey: emu.accessKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    requests++;
    if (res.statusCode >= 300) {
      const what = `${method} ${path.replace(/\d+/g, "{id}")} ${res.statusCode}`;
      failures.set(what, (failures.get(what) ?? 0) + 1);
    }
    return text ? (JSON.parse(text) as { Id: number }) : undefined;
  };
  const pass = (tag: string) =>
    Promise.all(
      Array.from({ length: 8 }, async (_, lane) => {
        for (let round = lane; round < rounds; round += 8) {
          const zone = await send("POST", "/dnszone", { Domain: `${tag}-${round}.example` });
          for (let r = 0; r < 4; r++) await send("PUT", `/dnszone/${zone!.Id}/records`, { Type: 3, Name: `txt${r}`, Value: "v", Ttl: 300 });
          await send("GET", `/dnszone/${zone!.Id}`);
          const pullZone = await send("POST", "/pullzone", { Name: `${tag}-${round}`, OriginUrl: "https://origin.example" });
          await send("POST", `/pullzone/${pullZone!.Id}/addHostname`, { Hostname: `www.${tag}-${round}.example` });
          await send("GET", `/pullzone/${pullZone!.Id}`);
          await send("DELETE", `/pullzone/${pullZone!.Id}`);
          await send("DELETE", `/dnszone/${zone!.Id}`);
        }
      }),
    );
  try {
    await pass("warm");
    requests = 0;
    failures.clear();
    const cpuBefore = cpuMs(emu.child.pid);
    const started = performance.now();
    await pass("bench");
    const wallMs = performance.now() - started;
    const emulatorCpuMs = cpuMs(emu.child.pid) - cpuBefore;
    return {
      requests,
      "emulator CPU ms": emulatorCpuMs,
      "emulator CPU µs/request": Math.round((1000 * emulatorCpuMs) / requests),
      "wall ms": Math.round(wallMs),
      "not 2xx": [...failures].map(([what, n]) => `${what} ×${n}`).join(", ") || 0,
    };
  } finally {
    await pool.close();
    await emu.stop();
  }
}

if (require.main === module) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { main: { type: "string" } } });
  const rounds = Number(positionals[0] ?? 300);
  benchEmulatorRequestCpu(rounds, values.main).then((row) => printTable(`Emulator CPU per request (${rounds} rounds of 11 requests, 8 at a time)`, [row]));
}

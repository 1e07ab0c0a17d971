import { Pool } from "undici";
import { percentile, printTable, spawnEmulator } from "./support";

/**
 * Requests per second the emulator serves for one simple GET on loopback, from a second process's point of view:
 * a fixed number of keep-alive connections each sending back to back for a fixed time.
 */
export async function benchEmulatorThroughput(options: { path?: string; seconds?: number; connections?: number } = {}) {
  const path = options.path ?? "/mc/regions";
  const seconds = options.seconds ?? 5;
  const connections = options.connections ?? 16;
  const emu = await spawnEmulator();
  const origin = new URL(emu.url).origin;
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  try {
    // Warm-up, so the first JIT and SQLite page loads do not count.
    const warmUntil = Date.now() + 500;
    while (Date.now() < warmUntil) await (await pool.request({ method: "GET", path, headers: { accesskey: emu.accessKey } })).body.dump();
    const deadline = Date.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (Date.now() < deadline) {
          const t = performance.now();
          const res = await pool.request({ method: "GET", path, headers: { accesskey: emu.accessKey } });
          await res.body.dump();
          if (res.statusCode !== 200) errors++;
          latencies.push(performance.now() - t);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      route: `GET ${path}`,
      connections,
      seconds: Math.round(elapsed * 10) / 10,
      requests: latencies.length,
      "req/s": Math.round(latencies.length / elapsed),
      "p50 ms": percentile(latencies, 50),
      "p99 ms": percentile(latencies, 99),
      "non-200": errors,
    };
  } finally {
    await pool.close();
    await emu.stop();
  }
}

if (require.main === module) {
  const seconds = Number(process.argv[2] ?? 5);
  benchEmulatorThroughput({ seconds }).then((row) => printTable("Emulator throughput (loopback)", [row]));
}

import { Pool } from "undici";
import { ProviderHost, secret } from "../tests/support/providerHost";
import { admin, countRequests, pooled, printTable, spawnEmulator } from "./support";

/**
 * Provider overhead: N ScriptVariables created, updated and deleted through the SDK's real provider host with the
 * RPCs the engine sends (Check+Create for a new resource; Check+Diff+Update for a changed one; Delete), against the
 * very same HTTP calls made directly with undici at the same concurrency. Both runs hit the same emulator; the
 * emulator's request log proves the call sequences match. Run once with no added latency and once with a
 * realistic round trip.
 *
 * The engine's sequence (pulumi/pulumi at 1a16857a, pkg/resource/deploy/step_generator.go): `generateSteps` calls
 * `prov.Check` for every registration ("Ensure the provider is okay with this resource and fetch the inputs"),
 * then, for a resource with old state, `sg.diff`, which calls the provider's Diff; only a Diff with changes
 * becomes an UpdateStep, whose `Apply` (step.go) calls Update. A new resource gets Check, then Create, no Diff.
 */

const TYPE = "ScriptVariable";

interface PhaseTimes {
  create: number;
  update: number;
  delete: number;
}

async function viaProvider(host: ProviderHost, scriptId: number, names: string[], concurrency: number): Promise<PhaseTimes> {
  const state: { id: string; outputs: Record<string, unknown> }[] = [];
  const create = await pooled(names, concurrency, async (name, i) => {
    const news = { scriptId, name, required: false, defaultValue: "v1" };
    const checked = await host.check(TYPE, {}, news, name);
    state[i] = await host.create(TYPE, checked.inputs, name);
  });
  const update = await pooled(names, concurrency, async (name, i) => {
    const news = { scriptId, name, required: true, defaultValue: "v2" };
    const checked = await host.check(TYPE, state[i].outputs, news, name);
    await host.diff(TYPE, state[i].id, state[i].outputs, checked.inputs, state[i].outputs, name);
    state[i].outputs = await host.update(TYPE, state[i].id, state[i].outputs, checked.inputs, state[i].outputs, name);
  });
  const del = await pooled(names, concurrency, async (name, i) => host.delete(TYPE, state[i].id, state[i].outputs, state[i].outputs, name));
  return { create, update, delete: del };
}

async function direct(pool: Pool, key: string, scriptId: number, names: string[], concurrency: number): Promise<PhaseTimes> {
  const call = async (method: "GET" | "POST" | "DELETE", path: string, body?: unknown) => {
    const res = await pool.request({
      method,
      path,
      headers: { accesskey: key, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path} → ${res.statusCode}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const ids: number[] = [];
  // The same calls the provider makes: look the name up (adoption and safe-create check), check that no secret has
  // it, then add.
  const create = await pooled(names, concurrency, async (name, i) => {
    await call("GET", `/compute/script/${scriptId}`);
    await call("GET", `/compute/script/${scriptId}/secrets`);
    ids[i] = (await call("POST", `/compute/script/${scriptId}/variables/add`, { Name: name, Required: false, DefaultValue: "v1" })).Id;
  });
  const update = await pooled(names, concurrency, async (_name, i) => {
    await call("POST", `/compute/script/${scriptId}/variables/${ids[i]}`, { Required: true, DefaultValue: "v2" });
  });
  const del = await pooled(names, concurrency, async (_name, i) => {
    await call("DELETE", `/compute/script/${scriptId}/variables/${ids[i]}`);
  });
  return { create, update, delete: del };
}

/** Each run: added latency (ms) and concurrency. The sequential run at 0 ms gives the pure per-call overhead. */
const DEFAULT_RUNS: { latencyMs: number; concurrency: number }[] = [
  { latencyMs: 0, concurrency: 1 },
  { latencyMs: 0, concurrency: 10 },
  { latencyMs: 20, concurrency: 10 },
];

export async function benchProviderOverhead(options: { count?: number; runs?: { latencyMs: number; concurrency: number }[] } = {}) {
  const count = options.count ?? 200;
  const runs = options.runs ?? DEFAULT_RUNS;
  const connections = Math.max(...runs.map((r) => r.concurrency));
  const emu = await spawnEmulator();
  const host = await ProviderHost.start();
  const pool = new Pool(new URL(emu.url).origin, { connections });
  const rows: Record<string, string | number>[] = [];
  try {
    await host.configure({ "bunnynet:apiKey": secret(emu.accessKey), "bunnynet:apiUrl": emu.url });
    const scriptId = Number(emu.fixtures.scriptId);
    // Warm-up: the plugin process loads the package once (about a second); that is start-up, not per-call overhead.
    await viaProvider(host, scriptId, ["BENCH_WARMUP_1", "BENCH_WARMUP_2"], 2);
    await direct(pool, emu.accessKey, scriptId, ["BENCH_WARMUP_3", "BENCH_WARMUP_4"], 2);
    // The floor: a gRPC round trip to the same host that does no provider work at all.
    const pings = 200;
    const pingStarted = performance.now();
    for (let i = 0; i < pings; i++) await host.ping();
    const pingMs = (performance.now() - pingStarted) / pings;
    rows.push({ latency: "-", phase: "empty gRPC call", resources: pings, concurrency: 1, "provider ms": Math.round(pingMs * pings), "direct ms": "", ratio: "", "overhead ms/op": pingMs });
    for (const { latencyMs, concurrency } of runs) {
      await admin(emu, "POST", "/_emulator/faults", { rules: [{ path: "^/compute/", latencyMs }] });
      let mark = (await countRequests(emu, Number.MAX_SAFE_INTEGER)).last;
      const p = await viaProvider(host, scriptId, Array.from({ length: count }, (_, i) => `BENCH_P${latencyMs}_${concurrency}_${i}`), concurrency);
      const providerCalls = await countRequests(emu, mark);
      mark = providerCalls.last;
      const d = await direct(pool, emu.accessKey, scriptId, Array.from({ length: count }, (_, i) => `BENCH_D${latencyMs}_${concurrency}_${i}`), concurrency);
      const directCalls = await countRequests(emu, mark);
      for (const phase of ["create", "update", "delete"] as const) {
        rows.push({
          latency: `${latencyMs} ms`,
          phase,
          resources: count,
          concurrency,
          "provider ms": Math.round(p[phase]),
          "direct ms": Math.round(d[phase]),
          ratio: p[phase] / d[phase],
          "overhead ms/op": ((p[phase] - d[phase]) * concurrency) / count,
        });
      }
      rows.push({
        latency: `${latencyMs} ms`,
        phase: "HTTP calls",
        resources: count,
        concurrency,
        "provider ms": providerCalls.count,
        "direct ms": directCalls.count,
        ratio: providerCalls.count / directCalls.count,
        "overhead ms/op": "",
      });
    }
  } finally {
    await pool.close();
    await host.stop();
    await emu.stop();
  }
  return rows;
}

if (require.main === module) {
  const count = Number(process.argv[2] ?? 200);
  benchProviderOverhead({ count }).then((rows) =>
    printTable("Provider overhead: provider host vs direct undici; overhead ms/op = added latency per operation (at concurrency 1: the per-call overhead); HTTP calls rows: request counts", rows),
  );
}

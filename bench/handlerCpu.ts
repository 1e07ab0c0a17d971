import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ResourceImplementation } from "bunnynet-pulumi/dist/pulumi/types.js";
import { levels, site } from "./siteScale";
import { pooled, printTable, spawnEmulator } from "./support";

/**
 * The provider's own CPU per resource operation: the sites of siteScale.ts deployed, re-checked and diffed, refreshed
 * and destroyed by calling the resource types' implementations (check, create, diff, read, delete) in this process,
 * against the emulator (its own process, no added latency), at parallel 8. No gRPC and no protobuf: what is measured
 * is our code and the libraries it calls (zod, undici), the part of the plugin's CPU this package decides, which the
 * plugin's total (siteScale.ts) buries under the SDK's provider host and under the machine's load.
 *
 * `node dist/bench/handlerCpu.js [S=10] [--dist DIR]` (`--dist`: another build's provider/dist, for before and after)
 */

const PROVIDER_TEXT = "x".repeat(900); // what the engine's properties carry in `__provider` (about this long: shim.ts)

type Props = Record<string, unknown>;

export async function benchHandlerCpu(sites: number, dist: string) {
  const { providerFor } = require(join(dist, "pulumi", "entry.js")) as { providerFor(type: string): ResourceImplementation };
  const emu = await spawnEmulator();
  const values: Record<string, string> = { "bunnynet:apiKey": emu.accessKey, "bunnynet:apiUrl": emu.url };
  const resources = Array.from({ length: sites }, (_, i) => site(i)).flat();
  const byName = new Map(resources.map((r) => [r.name, r]));
  const outputsOf = (name: string) => byName.get(name)?.outputs ?? {};
  const providers = new Map<string, ResourceImplementation>();
  for (const type of new Set(resources.map((r) => r.type))) {
    const provider = providerFor(type);
    await provider.configure?.({ config: { get: (key: string) => values[key] } } as never);
    providers.set(type, provider);
  }
  const of = (type: string) => providers.get(type)!;
  const rows: Record<string, string | number>[] = [];
  const phase = async (name: string, reverse: boolean, run: (r: (typeof resources)[number]) => Promise<void>) => {
    const before = process.cpuUsage();
    let wall = 0;
    for (const level of levels(resources, reverse)) wall += await pooled(level, 8, run);
    const cpu = process.cpuUsage(before);
    rows.push({ phase: name, resources: resources.length, "wall ms": Math.round(wall), "provider CPU ms/resource": (cpu.user + cpu.system) / 1000 / resources.length });
  };
  try {
    await phase("deploy (check, create)", false, async (r) => {
      const news = { ...r.props(outputsOf), __provider: PROVIDER_TEXT };
      const checked = await of(r.type).check!({}, news);
      if ((checked.failures ?? []).length > 0) throw new Error(`${r.name}: ${JSON.stringify(checked.failures)}`);
      const inputs: Props = { ...checked.inputs, __provider: PROVIDER_TEXT };
      const created = await of(r.type).create(inputs);
      Object.assign(r, { id: created.id, inputs, outputs: { ...created.outs, __provider: PROVIDER_TEXT } });
    });
    await phase("up, no change (check, diff)", false, async (r) => {
      const checked = await of(r.type).check!(r.inputs!, r.inputs!);
      const diff = await of(r.type).diff!(r.id!, r.outputs!, { ...checked.inputs, __provider: PROVIDER_TEXT });
      if (diff.changes) throw new Error(`${r.type} ${r.name}: a no-change deployment found changes`);
    });
    await phase("refresh (read)", false, async (r) => {
      const read = await of(r.type).read!(r.id!, r.outputs!);
      if (read.id !== r.id) throw new Error(`${r.type} ${r.name}: refresh lost it`);
    });
    await phase("destroy (delete)", true, async (r) => {
      await of(r.type).delete!(r.id!, r.outputs!);
    });
  } finally {
    await emu.stop();
  }
  return rows;
}

if (require.main === module) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { dist: { type: "string" } } });
  const sites = Number(positionals[0] ?? 10);
  const dist = values.dist ?? join(require.resolve("bunnynet-pulumi/dist/pulumi/entry.js"), "..", "..");
  benchHandlerCpu(sites, dist).then(
    (rows) => printTable(`The provider's own CPU per resource: ${sites} sites of siteScale.ts, handlers called in process (${dist})`, rows),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}

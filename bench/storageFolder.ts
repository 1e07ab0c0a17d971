import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { STORAGE_API_PATH } from "bunnynet-emulator/dist/testing/stackConfig.js";
import { type ProviderHost, secret } from "../tests/support/providerHost";
import { measurePhase } from "./pluginPhase";
import { admin, printTable, spawnEmulator, type EmulatorProcess } from "./support";

/**
 * A site's files as one StorageFolder (issue 26): a folder of N files uploaded from zero, then the phases of its life,
 * each a new plugin process as the engine starts one (pluginPhase.ts): an unchanged `up`, an `up` after changing 3
 * files and deleting 1, refresh, destroy. Reports the upload's wall time, the plugin's peak memory (it streams bodies
 * from disk, 8 at a time: memory should not follow the folder's size), and the API calls per changed file.
 *
 * Usage: node dist/bench/storageFolder.js [files=500] [--size bytes per file, default 4096] [--latency ms per call, default 20]
 */

const TYPE = "StorageFolder";

interface State {
  inputs: Record<string, unknown>;
  id?: string;
  outputs?: Record<string, unknown>;
}

/** One deployment step of the folder through the plugin: check (reads and hashes the folder), then the engine's next call. */
type Phase = { name: string; changedFiles?: number; prepare?: (dir: string) => void; run(host: ProviderHost, s: State): Promise<void> };

function makeFolder(files: number, size: number): string {
  const dir = mkdtempSync(join(tmpdir(), "bunnynet-bench-folder-"));
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `d${i % 10}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.bin`), randomBytes(size));
  }
  return dir;
}

const PHASES: Phase[] = [
  {
    name: "up, from zero",
    async run(host, s) {
      const checked = await host.check(TYPE, {}, s.inputs);
      const created = await host.create(TYPE, checked.inputs);
      Object.assign(s, { inputs: checked.inputs, id: created.id, outputs: created.outputs });
    },
  },
  {
    name: "up, no change",
    async run(host, s) {
      const checked = await host.check(TYPE, s.inputs, s.inputs);
      if ((await host.diff(TYPE, s.id!, s.outputs!, checked.inputs, s.inputs)).changes !== "none") throw new Error("an unchanged folder found changes");
    },
  },
  {
    name: "up, 3 changed + 1 deleted",
    changedFiles: 4,
    prepare(dir) {
      for (const i of [1, 2, 3]) writeFileSync(join(dir, `d${i % 10}`, `f${i}.bin`), randomBytes(64));
      unlinkSync(join(dir, "d4", "f4.bin"));
    },
    async run(host, s) {
      const checked = await host.check(TYPE, s.inputs, s.inputs);
      if ((await host.diff(TYPE, s.id!, s.outputs!, checked.inputs, s.inputs)).changes !== "some") throw new Error("the changes were not found");
      const outputs = await host.update(TYPE, s.id!, s.outputs!, checked.inputs, s.inputs);
      Object.assign(s, { inputs: checked.inputs, outputs });
    },
  },
  {
    name: "refresh",
    async run(host, s) {
      const read = await host.read(TYPE, s.id!, s.outputs!, s.inputs);
      if (read.id !== s.id) throw new Error("refresh lost the folder");
    },
  },
  {
    name: "destroy",
    async run(host, s) {
      await host.delete(TYPE, s.id!, s.outputs!, s.inputs);
    },
  },
];

export async function benchStorageFolder(options: { files: number; size: number; latencyMs: number }) {
  const { files, size, latencyMs } = options;
  const emu: EmulatorProcess = await spawnEmulator();
  const dir = makeFolder(files, size);
  const config = { "bunnynet:apiKey": secret(emu.accessKey), "bunnynet:apiUrl": emu.url, "bunnynet:storageApiUrl": `${emu.url}${STORAGE_API_PATH}` };
  const rows: Record<string, string | number>[] = [];
  try {
    const zone = (await (
      await fetch(`${emu.url}/storagezone`, { method: "POST", headers: { AccessKey: emu.accessKey, "content-type": "application/json" }, body: JSON.stringify({ Name: "bench-folder", Region: "DE" }) })
    ).json()) as { Id: number };
    await admin(emu, "POST", "/_emulator/faults", { rules: [{ latencyMs }] });
    const state: State = { inputs: { storageZoneId: zone.Id, source: dir } };
    for (const phase of PHASES) {
      phase.prepare?.(dir);
      const cost = await measurePhase(
        emu,
        config,
        (host) => host.check("StorageZone", {}, { name: "warm-up", region: "DE" }, "warm-up"),
        async (host) => {
          const started = performance.now();
          await phase.run(host, state);
          return performance.now() - started;
        },
      );
      rows.push({
        phase: phase.name,
        files,
        "bytes/file": size,
        "API calls": cost.calls,
        "calls/changed file": phase.changedFiles ? cost.calls / phase.changedFiles : "-",
        "wall ms": Math.round(cost.wallMs),
        "plugin CPU ms": Math.round(cost.pluginCpuMs),
        "emulator CPU ms": Math.round(cost.emulatorCpuMs),
        "plugin peak MB": cost.pluginPeakMb,
      });
    }
  } finally {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (require.main === module) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { latency: { type: "string", default: "20" }, size: { type: "string", default: "4096" } } });
  const files = Number(positionals[0] ?? 500);
  const size = Number(values.size);
  const latencyMs = Number(values.latency);
  benchStorageFolder({ files, size, latencyMs }).then(
    (rows) => printTable(`A site's files as one StorageFolder: ${files} files of ${size} bytes, ${latencyMs} ms added per API call (each phase a new plugin process)`, rows),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}

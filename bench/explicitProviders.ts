import { STORAGE_API_PATH } from "bunnynet-emulator/dist/testing/stackConfig.js";
import { Provider } from "bunnynet-pulumi/dist/provider.js";
import { DnsZone } from "bunnynet-pulumi/dist/resources/dnsZone.js";
import { startEmulator } from "../tests/support/emulator";
import { ProgramHarness } from "../tests/support/programHarness";
import { printTable } from "./support";

/**
 * What explicit providers cost: one stack of N DNS zones, deployed and destroyed through the testing kit with a plugin
 * process per provider (`hostPerCommand`, as the engine starts them), with the zones under the default provider (stack
 * config) or spread over 1, 2 or 4 `bunnynet.Provider`s, each its own emulated account. Each provider is one more
 * plugin process per command (its start and the package's load), and the zones of each account go through that
 * account's process. The emulator runs in this process, so the figures compare the layouts, not the API.
 *
 * `node dist/bench/explicitProviders.js [N=40]`
 */

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 40);
  const emu = await startEmulator();
  const urls = { apiUrl: emu.url, streamApiUrl: emu.url, loggingApiUrl: emu.url, storageApiUrl: `${emu.url}${STORAGE_API_PATH}` };
  const rows: Record<string, string | number>[] = [];
  try {
    for (const providers of [0, 1, 2, 4]) {
      const keys = await Promise.all(Array.from({ length: providers }, async () => (await emu.addAccount()).accessKey));
      const program = () => {
        const accounts = keys.map((apiKey, i) => new Provider(`account-${i}`, { apiKey, ...urls }));
        for (let i = 0; i < n; i++) {
          const provider = accounts.length > 0 ? accounts[i % accounts.length] : undefined;
          new DnsZone(`zone-${i}`, { domain: `z${i}.p${providers}.bench.example` }, { provider });
        }
      };
      const harness = new ProgramHarness({
        config: { "bunnynet:apiKey": emu.fixtures.accessKey, ...Object.fromEntries(Object.entries(urls).map(([k, v]) => [`bunnynet:${k}`, v])) },
        secretConfig: ["bunnynet:apiKey"],
        hostPerCommand: {},
      });
      const timed = async (run: () => Promise<unknown>) => {
        const started = performance.now();
        await run();
        return performance.now() - started;
      };
      const up = await timed(() => harness.up(program));
      const unchanged = await timed(() => harness.up(program));
      const destroy = await timed(() => harness.destroy());
      rows.push({
        layout: providers === 0 ? "default provider" : `${providers} bunnynet.Provider${providers > 1 ? "s" : ""}`,
        "plugin processes": Math.max(providers, 1),
        zones: n,
        "up ms": Math.round(up),
        "unchanged up ms": Math.round(unchanged),
        "destroy ms": Math.round(destroy),
      });
    }
  } finally {
    await emu.stop();
  }
  printTable(`explicit providers: ${n} DNS zones per layout, through the kit's provider hosts (hostPerCommand)`, rows);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});

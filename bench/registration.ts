import * as pulumi from "@pulumi/pulumi";
import { registeredTypes } from "bunnynet-pulumi/dist/pulumi/index.js";
import * as bunnynet from "bunnynet-pulumi/dist/index.js";
import { providerText } from "../tests/support/providerHost";
import { printTable } from "./support";

/**
 * The program side of a deployment: the serialized provider text each resource type stores in every
 * resource's state (`__provider`), and the time the SDK spends registering N resources of a type in a
 * program (serializing the provider, marshalling inputs, one RegisterResource each) with a mock engine
 * that answers at once, so only our and the SDK's own work is measured.
 */

const SAMPLE_ARGS: Record<string, (i: number) => unknown> = {
  ScriptVariable: (i) => new bunnynet.ScriptVariable(`v${i}`, { scriptId: 1, name: `VAR_${i}`, defaultValue: "x" }),
  ScriptSecret: (i) => new bunnynet.ScriptSecret(`s${i}`, { scriptId: 1, name: `SECRET_${i}`, value: "x" }),
  PullZoneHostname: (i) => new bunnynet.PullZoneHostname(`h${i}`, { pullZoneId: 1, hostname: `h${i}.example.com` }),
  RateLimitRule: (i) =>
    new bunnynet.RateLimitRule(`r${i}`, {
      pullZoneId: 1,
      name: `rule-${i}`,
      configuration: { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/x", requestCount: 10, timeframe: "PerOneMinute", blockTime: "ForOneMinute" },
    }),
  VideoThumbnail: (i) => new bunnynet.VideoThumbnail(`t${i}`, { libraryId: 1, videoId: `video-${i}`, frame: 1 }),
  VolumeInstanceDeletion: (i) => new bunnynet.VolumeInstanceDeletion(`d${i}`, { appId: "app", volumeId: "vol", instanceId: `inst-${i}` }),
  EdgeScript: (i) => new bunnynet.EdgeScript(`e${i}`, { name: `script-${i}`, type: "Middleware", code: "export default {}" }),
};

async function registerMany(type: string, count: number): Promise<number> {
  await pulumi.runtime.setMocks(
    {
      newResource: async (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: async () => ({}),
    },
    "bench",
    `bench-${type}`,
    false,
  );
  const started = performance.now();
  await pulumi.runtime.runInPulumiStack(async () => {
    const ids: pulumi.Output<string>[] = [];
    for (let i = 0; i < count; i++) ids.push((SAMPLE_ARGS[type](i) as pulumi.CustomResource).id);
    await new Promise<void>((resolve) => pulumi.all(ids).apply(() => resolve()));
    return {};
  });
  return performance.now() - started;
}

export async function benchRegistration(count = 500) {
  const rows: Record<string, string | number>[] = [];
  for (const type of registeredTypes()) {
    const text = await providerText(type);
    const ms = await registerMany(type, count);
    rows.push({ type, "__provider bytes": Buffer.byteLength(text), resources: count, "register total ms": Math.round(ms), "ms per resource": ms / count });
  }
  return rows;
}

if (require.main === module) {
  const count = Number(process.argv[2] ?? 500);
  benchRegistration(count).then((rows) => printTable(`Program side: serialized provider text and registering ${count} resources per type`, rows));
}

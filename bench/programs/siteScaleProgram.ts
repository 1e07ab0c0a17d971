/**
 * The account of bench/siteScale.ts (S sites of about 96 resources each) as a Pulumi program, for the real CLI
 * (bench/engineSiteScale.ts): the same resources, inputs and dependencies, each a bunnynet-pulumi resource, its
 * inputs taken from its parents' outputs as a user's program does. Config `sites` (default 10); with `noop: true`
 * the same graph of resources is declared with a dynamic provider that makes no API call and does no work, so the
 * engine's own cost (with the SDK and the plugin host around it) is measured beside ours.
 */
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";
import { site, type Resource } from "../siteScale";

type Props = Record<string, unknown>;
type ResourceClass = new (name: string, args: never, opts?: pulumi.CustomResourceOptions) => pulumi.CustomResource;

const CLASSES: Record<string, ResourceClass> = {
  DnsZone: bunnynet.DnsZone,
  StorageZone: bunnynet.StorageZone,
  EdgeScript: bunnynet.EdgeScript,
  VideoLibrary: bunnynet.VideoLibrary,
  PullZone: bunnynet.PullZone,
  ScriptVariable: bunnynet.ScriptVariable,
  DnsRecord: bunnynet.DnsRecord,
  ShieldZone: bunnynet.ShieldZone,
  PullZoneHostname: bunnynet.PullZoneHostname,
  RateLimitRule: bunnynet.RateLimitRule,
};

/** The ids the site's resources read from their parents, so a no-op resource has every output a child asks for. */
const PARENT_IDS = ["storageZoneId", "scriptId", "dnsZoneId", "pullZoneId", "shieldZoneId"] as const;

/** Answers every call at once with what it was given: nothing but the engine, the SDK and the plugin host runs. */
const noopProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: Props) {
    return { id: String(inputs.key), outs: { ...inputs, storageZoneId: 1, scriptId: 1, dnsZoneId: 1, pullZoneId: 1, shieldZoneId: 1 } };
  },
  async diff() {
    return { changes: false };
  },
  async read(id: string, props: Props) {
    return { id, props };
  },
  async delete() {},
};

class NoopResource extends pulumi.dynamic.Resource {
  declare readonly storageZoneId: pulumi.Output<number>;
  declare readonly scriptId: pulumi.Output<number>;
  declare readonly dnsZoneId: pulumi.Output<number>;
  declare readonly pullZoneId: pulumi.Output<number>;
  declare readonly shieldZoneId: pulumi.Output<number>;
  constructor(name: string, props: Props) {
    super(noopProvider, name, { ...props, key: name, ...Object.fromEntries(PARENT_IDS.map((k) => [k, undefined])) }, {}, "noop");
  }
}

const config = new pulumi.Config();
const sites = config.getNumber("sites") ?? 10;
const noop = config.getBoolean("noop") ?? false;
const declared = new Map<string, pulumi.CustomResource>();
const outputsOf = (name: string): Props => declared.get(name) as unknown as Props;
const resources: Resource[] = Array.from({ length: sites }, (_, i) => site(i)).flat();
// Parents first, as their outputs feed the children's inputs.
for (const r of [...resources].sort((a, b) => a.level - b.level)) {
  const props = r.props(outputsOf);
  declared.set(r.name, noop ? new NoopResource(r.name, props) : new CLASSES[r.type](r.name, props as never));
}

export const resourceCount = declared.size;

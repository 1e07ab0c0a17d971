// The program of tests/plugin/site.test.ts: bunny.net resources declared by their plugin tokens
// (`bunnynet:index:<Type>`) with the SDK's own CustomResource, as a program in any language declares them through a
// generated SDK, served by the provider plugin pulumi-resource-bunnynet (no bunnynet-pulumi in the program).
// Config (`plugin-site:`): `domain`, `cdnName`, `zoneLogging` (the zone's loggingEnabled), `ttl` (the record's),
// and `secondKey` (secret), `url`: a second account reached through an explicit provider.
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();

/** A resource of the plugin: `outputs` names the outputs the program reads (they come back as Output properties). */
class Bunny extends pulumi.CustomResource {
  [output: string]: unknown;
  constructor(type: string, name: string, inputs: pulumi.Inputs, outputs: string[], opts?: pulumi.CustomResourceOptions) {
    super(`bunnynet:index:${type}`, name, { ...inputs, ...Object.fromEntries(outputs.map((k) => [k, undefined])) }, opts);
  }
  out<T>(name: string): pulumi.Output<T> {
    return this[name] as pulumi.Output<T>;
  }
}

const zone = new Bunny("DnsZone", "zone", { domain: config.require("domain"), loggingEnabled: config.getBoolean("zoneLogging") ?? false }, ["dnsZoneId", "nameservers"]);
new Bunny("DnsRecord", "www", { dnsZoneId: zone.out<number>("dnsZoneId"), type: "A", name: "www", value: "192.0.2.1", ttl: config.getNumber("ttl") ?? 300 }, ["recordId"]);
new Bunny("DnsRecord", "mail", { dnsZoneId: zone.out<number>("dnsZoneId"), type: "MX", name: "", value: "mail.example.net", priority: 10 }, ["recordId"]);
const cdn = new Bunny("PullZone", "cdn", { name: config.require("cdnName"), origin: { url: "https://origin.example.net" } }, ["pullZoneId", "cdnHostname", "tokenAuthKey"]);
new Bunny("PullZoneHostname", "cdn-www", { pullZoneId: cdn.out<number>("pullZoneId"), hostname: `cdn.${config.require("domain")}` }, []);

/** An explicit provider of the plugin's package (the SDK's ProviderResource is abstract). */
class BunnyProvider extends pulumi.ProviderResource {
  constructor(name: string, args: pulumi.Inputs) {
    super("bunnynet", name, args);
  }
}

const secondKey = config.getSecret("secondKey");
if (secondKey !== undefined) {
  const second = new BunnyProvider("second", { apiKey: secondKey, apiUrl: config.require("url") });
  new Bunny("DnsZone", "zone-second", { domain: `second.${config.require("domain")}` }, ["dnsZoneId"], { provider: second });
}

export const zoneId = zone.out<number>("dnsZoneId");
export const cdnHostname = cdn.out<string>("cdnHostname");

// The program of tests/plugin/import.test.ts: what a user writes after `pulumi import` of a DNS zone and a pull zone
// made outside Pulumi, declaring the objects' inputs (the domain; the name and origin). Config (`plugin-import:`):
// `domain`, `cdnName`, `originUrl`.
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
/** A resource of the plugin (the SDK's CustomResource is abstract). */
class Bunny extends pulumi.CustomResource {}
new Bunny("bunnynet:index:DnsZone", "zone", { domain: config.require("domain") }, { protect: true });
new Bunny("bunnynet:index:PullZone", "cdn", { name: config.require("cdnName"), origin: { url: config.require("originUrl") } }, { protect: true });

// The program of tests/plugin/import.test.ts: what a user pastes after `pulumi import` of a DNS zone and a pull zone
// made outside Pulumi, declaring the inputs the import recorded (those the plugin read from the objects). Config
// (`plugin-import:`): `zone` and `cdn`, each resource's inputs as JSON. `zoneId`. It also calls the plugin's function getPullZone and reads the zone with `get`.
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
/** A resource of the plugin (the SDK's CustomResource is abstract). */
class Bunny extends pulumi.CustomResource {}
// `pulumi import` protects what it imports.
new Bunny("bunnynet:index:DnsZone", "zone", config.requireObject<pulumi.Inputs>("zone"), { protect: true });
new Bunny("bunnynet:index:PullZone", "cdn", config.requireObject<pulumi.Inputs>("cdn"), { protect: true });

// A function of the plugin (the lookup getPullZone), invoked by its token as an SDK's `getPullZone` does.
export const cdnByName = pulumi.runtime.invokeOutput("bunnynet:index:getPullZone", { name: config.requireObject<{ name: string }>("cdn").name });

// `get`: the zone read by its id, not managed (a `read` step), as an SDK's `DnsZone.get("zone-read", id)` does.
const read = new Bunny("bunnynet:index:DnsZone", "zone-read", { domain: undefined, loggingEnabled: undefined }, { id: config.require("zoneId") });
export const readDomain = (read as unknown as { domain: pulumi.Output<string> }).domain;

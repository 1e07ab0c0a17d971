// The program of tests/plugin/import.test.ts: what a user pastes after `pulumi import` of a DNS zone and a pull zone
// made outside Pulumi, declaring the inputs the import recorded (those the plugin read from the objects). Config
// (`plugin-import:`): `zone` and `cdn`, each resource's inputs as JSON.
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
/** A resource of the plugin (the SDK's CustomResource is abstract). */
class Bunny extends pulumi.CustomResource {}
// `pulumi import` protects what it imports.
new Bunny("bunnynet:index:DnsZone", "zone", config.requireObject<pulumi.Inputs>("zone"), { protect: true });
new Bunny("bunnynet:index:PullZone", "cdn", config.requireObject<pulumi.Inputs>("cdn"), { protect: true });

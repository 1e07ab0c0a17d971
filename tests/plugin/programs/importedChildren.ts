// The program of tests/plugin/importById.test.ts: what a user pastes after `pulumi import` of objects read within
// their parent (a DNS record, a hostname, an edge rule, a rate limit rule, a script variable), declaring the inputs the
// import recorded. Config (`plugin-import-children:`): `declared`, a JSON list of { type, name, inputs }; `read`, a
// JSON list of { type, name, id } read with `get` (not managed), each exported as its outputs.
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
/** A resource of the plugin (the SDK's CustomResource is abstract). */
class Bunny extends pulumi.CustomResource {}

const declared = config.getObject<{ type: string; name: string; inputs: pulumi.Inputs }[]>("declared") ?? [];
// `pulumi import` protects what it imports.
for (const { type, name, inputs } of declared) new Bunny(`bunnynet:index:${type}`, name, inputs, { protect: true });

// `get`: read by its id, as an SDK's `DnsRecord.get(name, id)` does (a `read` step): every output is asked for.
const read = config.getObject<{ type: string; name: string; id: string }[]>("read") ?? [];
export const readOutputs = Object.fromEntries(
  read.map(({ type, name, id }) => {
    const got = new Bunny(`bunnynet:index:${type}`, name, { value: undefined, name: undefined, recordId: undefined, dnsZoneId: undefined }, { id });
    return [name, { id: got.id, value: (got as unknown as Record<string, pulumi.Output<unknown>>).value, recordId: (got as unknown as Record<string, pulumi.Output<unknown>>).recordId }];
  }),
);

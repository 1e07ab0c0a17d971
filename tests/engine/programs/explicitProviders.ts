// The explicit-providers program of tests/pulumi/explicitProvider.test.ts as a compiled entry for the real CLI
// (tests/engine/explicitProviders.test.ts): two bunnynet.Providers, each an account, with a zone and a record in each.
// Config (`engine-accounts:`): the secret `keyA`, `keyB` in plain config (the provider marks it secret itself), the
// emulator's `url`, `storageUrl`, and `valueB`, the address account B's record points at.
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";

const config = new pulumi.Config();
const settings = (apiKey: pulumi.Input<string>): bunnynet.ProviderArgs => ({
  apiKey,
  apiUrl: config.require("url"),
  streamApiUrl: config.require("url"),
  loggingApiUrl: config.require("url"),
  storageApiUrl: config.require("storageUrl"),
  maxRetries: 1,
});
const accountA = new bunnynet.Provider("account-a", settings(config.requireSecret("keyA")));
const accountB = new bunnynet.Provider("account-b", settings(config.require("keyB")));
const zoneA = new bunnynet.DnsZone("zone-a", { domain: "a.accounts.example" }, { provider: accountA });
new bunnynet.DnsRecord("www-a", { dnsZoneId: zoneA.dnsZoneId, type: "A", name: "www", value: "192.0.2.1" }, { provider: accountA });
const zoneB = new bunnynet.DnsZone("zone-b", { domain: "b.accounts.example" }, { provider: accountB });
new bunnynet.DnsRecord("www-b", { dnsZoneId: zoneB.dnsZoneId, type: "A", name: "www", value: config.get("valueB") ?? "192.0.2.2" }, { provider: accountB });

/** The keys of account B, read by a lookup given B's provider: secret, as everything derived from a key. */
export const keysOfB = bunnynet.getApiKeysOutput({ provider: accountB }).apply((r) => r.keys.map((k) => k.key));

import * as pulumi from "@pulumi/pulumi";
import { DnsRecord } from "bunnynet-pulumi/dist/resources/dnsRecord.js";
import { DnsZone } from "bunnynet-pulumi/dist/resources/dnsZone.js";
import { ScriptSecret } from "bunnynet-pulumi/dist/resources/scriptSecret.js";
import { ScriptVariable } from "bunnynet-pulumi/dist/resources/scriptVariable.js";
import { Provider } from "bunnynet-pulumi/dist/provider.js";

/**
 * The program kitVersusEngine.test.ts deploys through the testing kit's ProgramHarness and through the real Pulumi CLI
 * (compiled to dist/tests/engine/kitProgram.js, the `main` of its CLI project). Its stack config picks each scenario:
 * `edition` (second: a DNS record's value changes in place), `variableName` (another name replaces the variable),
 * `signingKey` (the secret input), `secretName` (another name replaces the secret, deleting it first), `providerRetries` (the explicit provider's inputs), `withOther` (false: the explicit
 * provider's zone leaves the program), `recordName` (the record renamed, with an alias of its old name), `badRecord` (a record whose type fails Check). The variable ignores changes to
 * `required`, the secret has custom timeouts: options the engine sends on with Diff, Update, Create and Delete.
 */
export = function kitProgram(): Record<string, pulumi.Input<unknown>> {
  const config = new pulumi.Config();
  const bunnynet = new pulumi.Config("bunnynet");
  const edition = config.get("edition") ?? "first";
  const scriptId = config.requireNumber("scriptId");
  // A zone and a record in it: the record's create must come after the zone's.
  const zone = new DnsZone("zone", { domain: config.require("domain") });
  const recordName = config.get("recordName") ?? "www";
  const www = new DnsRecord(
    recordName,
    { dnsZoneId: zone.dnsZoneId, type: "A", name: "www", value: edition === "first" ? "192.0.2.1" : "192.0.2.2", ttl: 300 },
    recordName === "www" ? {} : { aliases: [{ name: "www" }] },
  );
  // A variable whose name is replaced on change.
  const variable = new ScriptVariable(
    "api-base",
    { scriptId, name: config.get("variableName") ?? "KIT_API_BASE", defaultValue: "https://api.kit.example" },
    { ignoreChanges: ["required"] },
  );
  // A secret input.
  const secret = new ScriptSecret(
    "signing",
    { scriptId, name: config.get("secretName") ?? "KIT_SIGNING", value: config.requireSecret("signingKey") },
    { customTimeouts: { create: "2m", update: "3m", delete: "4m" }, deleteBeforeReplace: true },
  );
  // An explicit provider, with the same account: its inputs are its config.
  const account = new Provider("account", {
    apiKey: bunnynet.requireSecret("apiKey"),
    apiUrl: bunnynet.require("apiUrl"),
    streamApiUrl: bunnynet.require("apiUrl"),
    loggingApiUrl: bunnynet.require("apiUrl"),
    storageApiUrl: bunnynet.require("storageApiUrl"),
    maxRetries: config.getNumber("providerRetries") ?? 1,
  });
  const other = config.getBoolean("withOther") === false ? undefined : new DnsZone("other-zone", { domain: `other.${config.require("domain")}` }, { provider: account });
  // After www is done (dependsOn): registered at once with it, which of the two the engine takes first is up to its
  // scheduling, and it takes no new registration after a failed Check (see kitVersusEngine.test.ts).
  if (config.getBoolean("badRecord")) new DnsRecord("bad", { dnsZoneId: zone.dnsZoneId, type: "BOGUS" as "A", name: "bad", value: "x" }, { dependsOn: [www] });
  return { zoneId: zone.dnsZoneId, recordId: www.id, variableId: variable.variableId, secretId: secret.secretId, otherZoneId: other?.dnsZoneId ?? "none" };
};

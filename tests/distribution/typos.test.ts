import assert from "node:assert/strict";
import { compileUserProject, PACKAGE_NAME, type UserProject } from "../support/userProject";

/**
 * Typos the compiler catches (issue 37): inputs that are a closed set of names are unions of those names (and the
 * other forms check accepts), and ids take numbers and strings of digits, never a name. Each typo line carries
 * `@ts-expect-error`, so the program compiles without diagnostics only when every typo is an error (an unused
 * directive is one) and every valid form compiles; the second test shows what the compiler says for the three.
 */

const TYPOS = `import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "${PACKAGE_NAME}";

const zone = new bunnynet.DnsZone("zone", { domain: "example.com" });
const cdn = new bunnynet.PullZone("cdn", { name: "acme-cdn", origin: { url: "https://origin.example.com" } });

// DnsRecord's type: names as written, lower or upper case, or the number.
new bunnynet.DnsRecord("a", { dnsZoneId: zone.dnsZoneId, type: "CNAME", name: "www", value: "acme-cdn.b-cdn.net" });
new bunnynet.DnsRecord("b", { dnsZoneId: 7, type: "cname", name: "www2", value: "acme-cdn.b-cdn.net" });
new bunnynet.DnsRecord("c", { dnsZoneId: "7", type: 2, name: "www3", value: "acme-cdn.b-cdn.net" });
new bunnynet.DnsRecord("d", { dnsZoneId: 7, type: "PullZone", name: "cdn", pullZoneId: cdn.pullZoneId });
// @ts-expect-error -- a typo of CNAME
new bunnynet.DnsRecord("e", { dnsZoneId: 7, type: "CNAM", name: "www", value: "acme-cdn.b-cdn.net" });
// @ts-expect-error -- not a record type's number
new bunnynet.DnsRecord("f", { dnsZoneId: 7, type: 16, name: "www", value: "acme-cdn.b-cdn.net" });
// @ts-expect-error -- a name is not an id
new bunnynet.DnsRecord("g", { dnsZoneId: "acme-cdn", type: "A", name: "@", value: "192.0.2.1" });

// EdgeRule's action, trigger and match types.
new bunnynet.EdgeRule("to-www", {
  pullZoneId: cdn.pullZoneId,
  actions: [{ type: "Redirect", parameters: ["https://www.example.com", "301"] }, { type: "setresponseheader", parameters: ["X-A", "1"] }, { type: 4 }],
  triggers: [{ type: "Url", patterns: ["*"], matchType: "MatchAll" }, { type: 4, patterns: ["DE"], matchType: 2 }],
  triggerMatchingType: "matchany",
});
new bunnynet.EdgeRule("typo-action", {
  pullZoneId: 42,
  // @ts-expect-error -- a typo of Redirect
  actions: [{ type: "Redirct", parameters: ["https://www.example.com", "301"] }],
  triggers: [{ type: "Url", patterns: ["*"] }],
});
new bunnynet.EdgeRule("typo-trigger", {
  pullZoneId: "42",
  actions: [{ type: "BlockRequest" }],
  // @ts-expect-error -- a typo of CountryCode
  triggers: [{ type: "Country", patterns: ["KP"] }],
});
new bunnynet.EdgeRule("typo-match", {
  pullZoneId: 42,
  actions: [{ type: "BlockRequest" }],
  // @ts-expect-error -- a typo of MatchAny
  triggers: [{ type: "Url", patterns: ["*"], matchType: "Any" }],
});
new bunnynet.EdgeRule("typo-matching", {
  pullZoneId: 42,
  actions: [{ type: "BlockRequest" }],
  triggers: [{ type: "Url", patterns: ["*"] }],
  // @ts-expect-error -- a typo of MatchAll
  triggerMatchingType: "All",
});
new bunnynet.EdgeRule("typo-id", {
  // @ts-expect-error -- a name is not an id
  pullZoneId: "acme-cdn",
  actions: [{ type: "BlockRequest" }],
  triggers: [{ type: "Url", patterns: ["*"] }],
});

// Ids elsewhere: numbers, strings of digits, Outputs of those.
new bunnynet.PullZoneHostname("h1", { pullZoneId: pulumi.output(42), hostname: "cdn.example.com" });
new bunnynet.PullZoneHostname("h2", { pullZoneId: "42", hostname: "cdn2.example.com" });
// @ts-expect-error -- a name is not an id
new bunnynet.PullZoneHostname("h3", { pullZoneId: "acme-cdn", hostname: "cdn3.example.com" });
// @ts-expect-error -- a name is not an id
new bunnynet.ShieldZone("shield", { pullZoneId: "acme-cdn" });
// @ts-expect-error -- a name is not an id
new bunnynet.StorageFile("robots", { storageZoneId: "files", path: "robots.txt", content: "" });

// StorageZone's regions.
const files = new bunnynet.StorageZone("files", { name: "files", region: "DE", replicationRegions: ["NY", "SYD"] });
new bunnynet.PullZone("site", { name: "site", origin: { storageZoneId: files.storageZoneId } });
// @ts-expect-error -- not a storage region
new bunnynet.StorageZone("eu", { name: "eu", region: "EU" });
// @ts-expect-error -- not a storage region
new bunnynet.StorageZone("eu2", { name: "eu2", region: "DE", replicationRegions: ["EU"] });

// Shield's enums (already unions): a typo of Advanced.
// @ts-expect-error -- a typo of Advanced
new bunnynet.ShieldZone("advance", { pullZoneId: 42, planType: "Advance" });
`;

describe("distribution: typos in a user's program do not compile (issue 37)", function () {
  this.timeout(300_000);
  let project: UserProject;

  before(() => {
    project = compileUserProject(TYPOS, "bunnynet-typos-");
  });
  after(() => project?.remove());

  it("every valid form compiles and every typo is an error (each @ts-expect-error is used)", () => {
    const { count, text } = project.diagnostics();
    assert.equal(count, 0, text);
  });

  it("without the directives, the compiler names the property of each of the issue's typos", () => {
    const bare = compileUserProject(TYPOS.replace(/^\s*\/\/ @ts-expect-error.*\n/gm, ""), "bunnynet-typos-bare-");
    try {
      const { count, text } = bare.diagnostics(Infinity);
      assert.equal(count, (TYPOS.match(/@ts-expect-error/g) ?? []).length, text);
      assert.match(text, /"CNAM"/);
      assert.match(text, /"Redirct"/);
      assert.match(text, /"acme-cdn"/);
      assert.match(text, /"EU"/);
    } finally {
      bare.remove();
    }
  });
});

import assert from "node:assert/strict";
import { FileText, FromConfig, NameTable, Reference, identifier, printValue, programText, slug } from "bunnynet-pulumi/dist/cli/export/program.js";

/** The pure parts of `bunnynet export`'s program: names from objects' own names, and values printed as TypeScript. */
describe("unit: bunnynet export's program text", () => {
  it("names: slugs for Pulumi, camelCase identifiers for TypeScript, never a reserved word or a leading digit", () => {
    assert.equal(slug("Example.COM"), "example-com");
    assert.equal(slug("api limit /v1"), "api-limit-v1");
    assert.equal(slug("***"), "unnamed");
    assert.equal(identifier("example-com", "dnsZone"), "exampleCom");
    assert.equal(identifier("1st-zone", "pullZone"), "pullZone1stZone");
    assert.equal(identifier("default", "storageZone"), "storageZoneDefault");
    assert.equal(identifier("config", "edgeScript"), "edgeScriptConfig");
  });

  it("a name taken twice gets a number, in the Pulumi name and the variable alike", () => {
    const names = new NameTable();
    assert.deepEqual(names.take("www", "dnsRecord"), { name: "www", variable: "www" });
    assert.deepEqual(names.take("WWW", "dnsRecord"), { name: "www-2", variable: "www2" });
    // Distinct names whose identifiers would clash are told apart too.
    assert.deepEqual(names.take("www-2", "dnsRecord"), { name: "www-2-2", variable: "www22" });
  });

  it("values: literals as JSON, references as variables, config reads, file text; keys quoted only when needed", () => {
    const text = printValue({
      name: "cdn",
      origin: { storageZoneId: new Reference("files", "storageZoneId") },
      value: new FromConfig("edgeApiToken", true),
      certificate: new FromConfig("wwwCertificate", false),
      code: new FileText("scripts/edge.js"),
      zones: ["EU", "US"],
      "variable-types": { REQUEST_URI: "" },
    });
    assert.equal(
      text,
      [
        "{",
        '  name: "cdn",',
        "  origin: {",
        "    storageZoneId: files.storageZoneId,",
        "  },",
        '  value: config.requireSecret("edgeApiToken"),',
        '  certificate: config.require("wwwCertificate"),',
        '  code: fs.readFileSync("scripts/edge.js", "utf8"),',
        '  zones: ["EU", "US"],',
        '  "variable-types": {',
        '    REQUEST_URI: "",',
        "  },",
        "}",
      ].join("\n"),
    );
  });

  it("every resource adopts and is protected, in its section", () => {
    const text = programText([{ title: "DNS zone example.com", resources: [{ type: "DnsZone", name: "example-com", variable: "exampleCom", id: "7", inputs: { domain: "example.com" } }] }], "a test");
    assert.match(text, /\/\/ DNS zone example\.com\nnew bunnynet\.DnsZone\("example-com", \{\n {2}domain: "example\.com",\n {2}adoptExisting: true,\n\}, \{ protect: true \}\);\n$/);
  });

  it("declares only what is used: a variable another resource refers to, the config and fs when read (noUnusedLocals)", () => {
    const zone = { type: "DnsZone", name: "example-com", variable: "exampleCom", id: "7", inputs: { domain: "example.com" } };
    const record = { type: "DnsRecord", name: "www", variable: "www", id: "8", inputs: { dnsZoneId: new Reference("exampleCom", "dnsZoneId"), type: "A", name: "www", value: "192.0.2.1" } };
    const plain = programText([{ title: "DNS zone example.com", resources: [zone, record] }], "a test");
    assert.match(plain, /\nconst exampleCom = new bunnynet\.DnsZone\(/);
    assert.match(plain, /\nnew bunnynet\.DnsRecord\("www"/);
    assert.doesNotMatch(plain, /import \* as (fs|pulumi)|new pulumi\.Config/);
    const secret = { type: "ScriptSecret", name: "token", variable: "token", id: "9", inputs: { scriptId: 1, name: "TOKEN", value: new FromConfig("token", true) } };
    const script = { type: "EdgeScript", name: "edge", variable: "edge", id: "1", inputs: { name: "edge", type: "Standalone", code: new FileText("scripts/edge.js") } };
    const both = programText([{ title: "Edge script edge", resources: [script, secret] }], "a test");
    assert.match(both, /\nimport \* as fs from "fs";\nimport \* as pulumi from "@pulumi\/pulumi";\nimport \* as bunnynet from "bunnynet-pulumi";\n\nconst config = new pulumi\.Config\(\);\n/);
  });

  it("a resource that takes over what is there by itself (a StorageFolder) is protected, without adoptExisting", () => {
    const text = programText(
      [{ title: "Storage zone files", resources: [{ type: "StorageFolder", name: "files-content", variable: "filesContent", id: "4/", inputs: { storageZoneId: 4, source: "storage/files-content" }, adopts: false }] }],
      "a test",
    );
    assert.match(text, /new bunnynet\.StorageFolder\("files-content", \{\n {2}storageZoneId: 4,\n {2}source: "storage\/files-content",\n\}, \{ protect: true \}\);\n$/);
  });
});

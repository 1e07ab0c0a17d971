import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GROUPS, Schema, cell, configSection, extractRegions, readEnumSpellings, renderIndex, renderResourcePage, pythonName, renderType, snakeCase, splitImport, summary, typesUsed } from "../../../docs/reference";

/** The reference pages' rendering (docs/reference.ts) on a small schema. */
const schema: Schema = {
  name: "bunnynet",
  resources: {
    "bunnynet:index:Zone": {
      description: "A zone. Second sentence.\n\n## Import\n\n```sh\n$ pulumi import bunnynet:index:Zone z <id>\n```",
      inputProperties: {
        origin: { $ref: "#/types/bunnynet:index:ZoneOrigin", description: "Where | from." },
        apiKey: { type: "string", secret: true },
        ttl: { type: "integer", default: 300 },
        region: { type: "string", replaceOnChanges: true },
        tls: { oneOf: [{ type: "string" }, { $ref: "#/types/bunnynet:index:ZoneOrigin" }] },
      },
      requiredInputs: ["origin"],
      properties: { zoneId: { type: "integer" }, tls: { $ref: "pulumi.json#/Any" } },
      required: ["zoneId"],
    },
  },
  functions: {},
  types: {
    "bunnynet:index:ZoneOrigin": {
      type: "object",
      properties: {
        scheme: { oneOf: [{ $ref: "#/types/bunnynet:index:ZoneOriginScheme" }, { type: "string" }] },
        port: { oneOf: [{ $ref: "#/types/bunnynet:index:ZonePort" }, { type: "integer" }, { type: "string" }] },
      },
    },
    "bunnynet:index:ZoneOriginScheme": { type: "string", enum: [{ name: "Https", value: "https" }] },
    "bunnynet:index:ZonePort": { type: "integer", enum: [{ name: "Standard", value: 443 }] },
    "bunnynet:index:Unused": { type: "string", enum: [{ value: "x" }] },
  },
};

describe("docs/reference: the reference pages from the schema", () => {
  it("snakeCase names an input as Pulumi's Python SDK does", () => {
    const cases: [string, string][] = [
      ["name", "name"],
      ["dnsZoneId", "dns_zone_id"],
      ["originURL", "origin_url"],
      ["URLPath", "url_path"],
      ["nameserver1", "nameserver1"],
      ["rewrite404To200", "rewrite404_to200"],
      ["enableTLS1_1", "enable_tls1_1"],
    ];
    for (const [camel, snake] of cases) assert.equal(snakeCase(camel), snake, camel);
    assert.equal(pythonName("from"), "from_");
    assert.equal(pythonName("fromDate"), "from_date");
  });

  it("renderType writes primitives, arrays, maps, unions, Pulumi's own types and links to the page's types", () => {
    assert.equal(renderType({ type: "string" }), "string");
    assert.equal(renderType({ type: "array", items: { type: "integer" } }), "integer[]");
    assert.equal(renderType({ type: "object", additionalProperties: { type: "array", items: { type: "string" } } }), "map<string[]>");
    assert.equal(renderType({ oneOf: [{ type: "string" }, { type: "integer" }] }), "string \\| integer");
    assert.equal(renderType({ $ref: "pulumi.json#/Asset" }), "Asset");
    assert.equal(renderType({ type: "array", items: { $ref: "#/types/bunnynet:index:ZoneOrigin" } }), "[ZoneOrigin](#zoneorigin)[]");
  });

  it("typesUsed follows references through object types and leaves out the types not used", () => {
    assert.deepEqual(typesUsed(schema, Object.values(schema.resources["bunnynet:index:Zone"].inputProperties!)), ["bunnynet:index:ZoneOrigin", "bunnynet:index:ZoneOriginScheme", "bunnynet:index:ZonePort"]);
    assert.throws(() => typesUsed(schema, [{ $ref: "#/types/bunnynet:index:Missing" }]), /Missing is referenced/);
  });

  it("splits a description at its Import section, and a table cell is one line with its pipes escaped", () => {
    const { body, importText } = splitImport(schema.resources["bunnynet:index:Zone"].description);
    assert.equal(body, "A zone. Second sentence.");
    assert.match(importText!, /^```sh\n\$ pulumi import bunnynet:index:Zone z <id>\n```$/);
    assert.deepEqual(splitImport("No import."), { body: "No import." });
    assert.equal(cell("a |\n  b"), "a \\| b");
    assert.equal(summary(schema.resources["bunnynet:index:Zone"].description), "A zone.");
  });

  it("a resource page has the token, each language's name, the inputs' flags and Python names, the types used with each enum member's constants, and the import", () => {
    const snippets = { Zone: { typescript: "new bunnynet.Zone(\"z\", {});", python: "bunnynet.Zone(\"z\")", go: "bunnynet.NewZone(ctx, \"z\", nil)", yaml: "resources:\n  z:\n    type: bunnynet:index:Zone" } };
    const spellings = new Map([
      ["bunnynet:index:ZoneOriginScheme", new Map([['"https"', { python: "ZoneOriginScheme.HTTPS", go: "bunnynet.ZoneOriginSchemeHttps" }]])],
      ["bunnynet:index:ZonePort", new Map([["443", { python: "ZonePort.STANDARD", go: "bunnynet.ZonePortStandard" }]])],
    ]);
    const page = renderResourcePage(schema, "bunnynet:index:Zone", snippets, spellings);
    assert.match(page, /^# Zone resource\n/);
    assert.match(page, /Resource token: `bunnynet:index:Zone`/);
    assert.match(page, /\| Python \| `pulumi_bunnynet` \| `pulumi_bunnynet\.Zone` \|/);
    assert.match(page, /`bunnynet\.NewZone`/);
    assert.match(page, /\| `origin` \\| `origin` \| \[ZoneOrigin\]\(#zoneorigin\) \| required \| {2}\| {2}\| Where \\\| from\. \|/);
    assert.match(page, /\| `apiKey` \\| `api_key` \| string \| optional \| {2}\| secret \|/);
    assert.match(page, /\| `ttl` \\| `ttl` \| integer \| optional \| `300` \|/);
    assert.match(page, /\| `region` \\| `region` \| string \| optional \| {2}\| changing it replaces the resource \|/);
    assert.match(page, /\| `zoneId` \\| `zone_id` \| integer \| yes \|/);
    assert.match(page, /### ZoneOrigin\n/);
    // Each enum member's constant in Python and Go, and whether TypeScript and YAML take its name.
    assert.match(page, /### ZoneOriginScheme\n[^]*by its value;[^]*\| Https \| `"https"` \| `ZoneOriginScheme\.HTTPS` \| `bunnynet\.ZoneOriginSchemeHttps` \|/);
    assert.match(page, /### ZonePort\n[^]*by its name \(as a string\) or its value;[^]*\| Standard \| `443` \| `ZonePort\.STANDARD` \| `bunnynet\.ZonePortStandard` \|/);
    // An output read back as any shows the union its input takes.
    assert.match(page, /\| `tls` \| `tls` \| string \\\| \[ZoneOrigin\]\(#zoneorigin\) \(typed any in the SDKs\) \| no \|/);
    assert.doesNotMatch(page, /Unused/);
    assert.match(page, /## Import\n\n```sh\n\$ pulumi import/);
    assert.match(page, /### Python\n\nFrom \[examples\/reference\/python\/__main__\.py\]\(\.\.\/\.\.\/examples\/reference\/python\/__main__\.py\):\n\n```python\nbunnynet\.Zone\("z"\)\n```\n/);
    assert.throws(() => renderResourcePage(schema, "bunnynet:index:Zone", { Zone: { ...snippets.Zone, go: undefined } }, spellings), /Zone: no region Zone in examples\/reference\/go\/main\.go/);
  });

  it("reads each enum member's constant from the generated Python and Go SDKs, a Go type renamed Enum included", () => {
    const root = mkdtempSync(join(tmpdir(), "bunnynet-spellings-"));
    try {
      mkdirSync(join(root, "sdk", "python", "pulumi_bunnynet"), { recursive: true });
      mkdirSync(join(root, "sdk", "go", "bunnynet"), { recursive: true });
      const python = [
        '@pulumi.type_token("bunnynet:index:ZoneOriginScheme")',
        "class ZoneOriginScheme(_builtins.str, Enum):",
        '    HTTPS = "https"',
        "",
        '@pulumi.type_token("bunnynet:index:ZonePort")',
        "class ZonePort(_builtins.int, Enum):",
        '    """',
        "    The port.",
        '    """',
        "    STANDARD = 443",
        "",
      ].join("\n");
      writeFileSync(join(root, "sdk", "python", "pulumi_bunnynet", "_enums.py"), python);
      const go = ["const (", '\tZoneOriginSchemeHttps = ZoneOriginScheme("https")', ")", "const (", "\tZonePortEnumStandard = ZonePortEnum(443)", ")", ""].join("\n");
      writeFileSync(join(root, "sdk", "go", "bunnynet", "pulumiEnums.go"), go);
      const spellings = readEnumSpellings(root, schema);
      assert.deepEqual(spellings.get("bunnynet:index:ZoneOriginScheme")?.get('"https"'), { python: "ZoneOriginScheme.HTTPS", go: "bunnynet.ZoneOriginSchemeHttps" });
      assert.deepEqual(spellings.get("bunnynet:index:ZonePort")?.get("443"), { python: "ZonePort.STANDARD", go: "bunnynet.ZonePortEnumStandard" });
      assert.deepEqual(spellings.get("bunnynet:index:Unused")?.get('"x"'), { python: "", go: "" });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("a program's regions: nested ones without their markers, dedented; in YAML under their top-level key", () => {
    const program = ["x := 1", "\t// region Record", "\t// region Zone", "\tzone := 1", "\t// endregion", "\t\trecord := zone", "\t// endregion"].join("\n");
    assert.deepEqual([...extractRegions(program)], [["Zone", "zone := 1"], ["Record", "zone := 1\n\trecord := zone"]]);
    const yaml = ["resources:", "  # region Zone", "  zone:", "    type: bunnynet:index:DnsZone", "  # endregion"].join("\n");
    assert.deepEqual([...extractRegions(yaml, true)], [["Zone", "resources:\n  zone:\n    type: bunnynet:index:DnsZone"]]);
    assert.throws(() => extractRegions("// region A\nx"), /region A is not closed/);
    assert.throws(() => extractRegions("x\n// endregion"), /line 2: endregion without a region/);
    assert.throws(() => extractRegions("// region A\nx\n// endregion\n// region A\ny\n// endregion"), /region A again/);
    assert.throws(() => extractRegions("# region A\n# endregion"), /region A is empty/);
  });

  it("the index refuses a schema whose resources and functions are not each in a group", () => {
    assert.throws(() => renderIndex(schema), /not grouped: \[Zone\]; not in the schema: \[.*DnsZone/);
    const names = GROUPS.flatMap((g) => g.members);
    assert.equal(new Set(names).size, names.length, "a name in two groups");
  });

  it("the configuration table names each setting's stack key, environment variables and secrecy", () => {
    const table = configSection({ ...schema, config: { variables: { apiKey: { type: "string", secret: true, description: "The key.", defaultInfo: { environment: ["A_KEY", "B_KEY"] } } } } }).join("\n");
    assert.match(table, /^## Configuration\n/);
    assert.match(table, /\| `bunnynet:apiKey` \| string \| `A_KEY`, `B_KEY` \| secret \| The key\. \|/);
    assert.deepEqual(configSection(schema), []);
  });
});

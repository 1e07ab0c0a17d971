import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { formatParts, importFormat, importTarget, ownIdOnly, withinParent } from "bunnynet-pulumi/dist/pulumi/importIds.js";
import { definitionOf, registeredTypes } from "bunnynet-pulumi/dist/pulumi/registry.js";
import "bunnynet-pulumi/dist/index.js";

const record = { type: "DnsRecord", importId: withinParent("dnsZoneId", "recordId", { ownNumeric: true }) };
const file = {
  type: "StorageFile",
  importId: { format: "<storageZoneId>/<path>", parse: ([zone, path]: readonly string[]) => ({ id: `${zone}/${path}`, state: { storageZoneId: Number(zone), path } }) },
};

describe("import ids", () => {
  it("a composite id gives the object's own id and the parent ids its get reads within", () => {
    assert.deepEqual(importTarget(record, "bunnynet:index:DnsRecord", "5/12"), { id: "12", state: { dnsZoneId: 5 } });
    assert.deepEqual(importTarget({ type: "DnsZone", importId: ownIdOnly("dnsZoneId", true) }, "bunnynet:index:DnsZone", "5"), { id: "5", state: {} });
  });

  it("the last part takes the rest of the id (a file's path holds '/')", () => {
    assert.deepEqual(importTarget(file, "bunnynet:index:StorageFile", "7/a/b/c.txt"), { id: "7/a/b/c.txt", state: { storageZoneId: 7, path: "a/b/c.txt" } });
  });

  it("refuses an id not in the format, naming the type, the format and the id", () => {
    const refused = (id: string) => assert.throws(() => importTarget(record, "bunnynet:index:DnsRecord", id), (e: Error) => (assert.ok(e.message.startsWith(`bunnynet:index:DnsRecord ids are <dnsZoneId>/<recordId>, got ${JSON.stringify(id)}`), e.message), true));
    refused("12");
    refused("5/");
    refused("x/12");
    refused("5/12/3");
    assert.throws(() => importTarget(record, "t", "/12"), /<dnsZoneId> is empty/);
    assert.throws(() => importTarget(record, "t", "x/12"), /<dnsZoneId> must be a positive whole number, got "x"/);
  });

  it("refuses a type with no import id, saying why", () => {
    assert.throws(() => importTarget({ type: "Purge", importId: { notImportable: "an action" } }, "bunnynet:index:Purge", "1"), /^Error: bunnynet:index:Purge cannot be imported or read with get: an action$/);
    assert.throws(() => importTarget({ type: "New" }, "bunnynet:index:New", "1"), /cannot be imported or read with get: its definition gives no import id format \(importId\) yet/);
  });

  it("a format is parts <name> joined by '/'", () => {
    assert.deepEqual(formatParts("<a>/<b>"), ["a", "b"]);
    assert.throws(() => formatParts("a/<b>"), /an import id format is <name>\/<name>…, got "a\/<b>"/);
  });

  it("every registered type says how it is imported or why it cannot be, in a well-formed format", () => {
    for (const type of registeredTypes()) {
      const def = definitionOf(type)!;
      assert.ok(def.importId, `${type} has no importId`);
      const format = importFormat(def);
      if (format !== undefined) assert.ok(formatParts(format).length >= 1, type);
    }
  });

  it("the plugin guide's import table names each type with its format, and each type that cannot be imported", () => {
    // From the source (npm run test:unit) or from dist/: the repository's root is the first folder above with docs/guides.
    let root = __dirname;
    while (!existsSync(join(root, "docs", "guides")) && dirname(root) !== root) root = dirname(root);
    const guide = readFileSync(join(root, "docs", "guides", "plugin-and-other-languages.md"), "utf8");
    const start = guide.indexOf("- **Import and get**");
    const end = guide.indexOf("- Secrets stay secrets");
    assert.ok(start >= 0 && end > start, "the guide has its import paragraph");
    const table = guide.slice(start, end);
    for (const type of registeredTypes()) {
      const format = importFormat(definitionOf(type)!);
      assert.ok(table.includes(`\`${type}\``), `the plugin guide's import paragraph does not name ${type}`);
      if (format !== undefined) assert.ok(table.includes(`\`${format}\``), `the plugin guide's import table lacks ${type}'s ${format}`);
    }
  });
});

import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fillsFallbacks, hasFallback } from "bunnynet-pulumi/dist/schemas/common.js";
import { DnsRecordSchema, DnsZoneSchema } from "bunnynet-pulumi/dist/schemas/dns.js";
import { PullZoneSchema } from "bunnynet-pulumi/dist/schemas/pullZones.js";

/**
 * Answer fields with a fallback (schemas/common.ts `withFallback`) are only `.nullish()` at run time: the object that
 * holds one must be an `answerObject`, which fills them, or the answer keeps a null its type says cannot be there.
 */

type Def = { type?: string; shape?: Record<string, unknown>; element?: unknown; innerType?: unknown; in?: unknown; out?: unknown; options?: unknown[]; valueType?: unknown; left?: unknown; right?: unknown };
const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** Every object schema inside `schema` whose shape has a field with a fallback but does not fill it: `path` of each. */
function unfilled(schema: unknown, path: string, seen: Set<unknown>, found: string[]): void {
  const def = defOf(schema);
  if (!def || seen.has(schema)) return;
  seen.add(schema);
  if (def.type === "object" && def.shape) {
    const withFallback = Object.keys(def.shape).filter((k) => hasFallback(def.shape![k] as never));
    if (withFallback.length > 0 && !fillsFallbacks(schema as never)) found.push(`${path} (${withFallback.join(", ")})`);
    for (const [k, field] of Object.entries(def.shape)) unfilled(field, `${path}.${k}`, seen, found);
  }
  for (const inner of [def.element, def.innerType, def.in, def.out, def.valueType, def.left, def.right, ...(def.options ?? [])]) unfilled(inner, path, seen, found);
}

describe("answer fields with a fallback", () => {
  it("are inside an object that fills them, in every schema of provider/schemas", () => {
    const found: string[] = [];
    const seen = new Set<unknown>();
    const dir = join(process.cwd(), "provider", "schemas");
    const modules = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
    assert.ok(modules.length > 10);
    for (const file of modules) {
      const name = file.replace(/\.ts$/, "");
      const exported = require(`bunnynet-pulumi/dist/schemas/${name}.js`) as Record<string, unknown>;
      for (const [key, value] of Object.entries(exported)) unfilled(value, `${name}.${key}`, seen, found);
    }
    assert.deepEqual(found, []);
  });

  it("read null or a left-out field as the fallback, with the keys in the shape's order", () => {
    const record = DnsRecordSchema.parse({ Comment: null, Type: 3, Id: 7, Ttl: 300 });
    assert.deepEqual(Object.keys(record), Object.keys(DnsRecordSchema.shape));
    assert.equal(record.Comment, "");
    assert.equal(record.Name, "");
    assert.equal(record.Ttl, 300);
    assert.equal(record.Disabled, false);
    assert.equal(record.Weight, 0);
    assert.deepEqual(DnsZoneSchema.parse({ Id: 1, Records: null }).Records, []);
  });

  it("still refuse a field of the wrong type, naming it", () => {
    const result = DnsZoneSchema.safeParse({ Id: 1, Records: [{ Id: 2, Type: 3, Ttl: "300" }] });
    assert.equal(result.success, false);
    assert.deepEqual(result.error?.issues.map((i) => i.path.join(".")), ["Records.0.Ttl"]);
  });

  it("give each answer its own list", () => {
    const a = PullZoneSchema.parse({ Id: 1 });
    const b = PullZoneSchema.parse({ Id: 2 });
    a.BlockedIps.push("192.0.2.1");
    a.Hostnames.push({ Id: 3 } as never);
    assert.deepEqual(b.BlockedIps, []);
    assert.deepEqual(b.Hostnames, []);
  });
});

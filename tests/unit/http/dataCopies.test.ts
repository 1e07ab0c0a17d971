import assert from "node:assert/strict";
import { copyData, jsonCopy } from "bunnynet-pulumi/dist/http/dataCopies.js";

/** The copies walk plain data themselves: each must give what the original it replaces gives. */

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

const withProtoKey = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: [1, { c: null }] });

const SAMPLES: unknown[] = [
  { Id: 7, Name: "zone", Records: [{ Id: 1, Value: "v", Ttl: 300, Disabled: false, Tag: null }], Nested: { deep: { deeper: [1, [2, [3]]] } } },
  { a: undefined, b: [undefined, () => 1, Symbol("s")], c: () => 1, d: Symbol("s"), e: NaN, f: Infinity, g: -0, h: [-0, NaN] },
  { when: new Date(Date.UTC(2026, 10, 27)), custom: { toJSON: () => ({ replaced: true }) }, gone: { toJSON: () => undefined } },
  { point: new Point(1, 2), map: new Map([["k", 1]]), set: new Set([1]), boxed: new Number(3) },
  withProtoKey,
  nullProto,
  [1, "two", null, true, { x: [] }],
  "text",
  42,
  null,
];

describe("copies of data", () => {
  it("jsonCopy gives what a JSON round trip gives", () => {
    for (const sample of SAMPLES) {
      const copy = jsonCopy(sample);
      assert.deepStrictEqual(copy, JSON.parse(JSON.stringify(sample)));
      assert.equal(JSON.stringify(copy), JSON.stringify(sample));
    }
    assert.equal(Object.getPrototypeOf(jsonCopy(withProtoKey)), Object.prototype);
    assert.equal(Object.is((jsonCopy({ z: -0 }) as { z: number }).z, 0), true);
  });

  it("jsonCopy throws where JSON.stringify throws", () => {
    assert.throws(() => jsonCopy({ big: 1n }), TypeError);
  });

  it("copyData gives what structuredClone gives, and shares nothing with the original", () => {
    const plainSamples = SAMPLES.filter((s) => !(typeof s === "object" && s !== null && "c" in s && typeof (s as { c: unknown }).c === "function") && !(typeof s === "object" && s !== null && "custom" in s));
    for (const sample of plainSamples) assert.deepStrictEqual(copyData(sample), structuredClone(sample));
    const original = SAMPLES[0] as { Records: { Value: string }[]; Nested: { deep: { deeper: unknown[] } } };
    const copy = copyData(original);
    copy.Records[0].Value = "changed";
    copy.Nested.deep.deeper.push(4);
    assert.equal(original.Records[0].Value, "v");
    assert.equal(original.Nested.deep.deeper.length, 2);
    assert.equal(Object.getPrototypeOf(copyData(nullProto)), Object.prototype);
    assert.equal(Object.hasOwn(copyData(withProtoKey), "__proto__"), true);
  });
});

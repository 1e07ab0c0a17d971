import assert from "node:assert/strict";
import { Struct, pulumiRequire } from "bunnynet-emulator/dist/testing/sdkModules.js";
import { structForSending } from "bunnynet-emulator/dist/testing/structWire.js";
import type { Plain } from "bunnynet-emulator/dist/testing/wire.js";

type Serializable = { serializeBinary(): Uint8Array };
const bytesOf = (struct: unknown) => Buffer.from((struct as Serializable).serializeBinary());
const protobufBytes = (value: Plain) => bytesOf(Struct.fromJavaScript(value));

/** The kit's own Struct encoding sends exactly the bytes google-protobuf's would (the engine's wire contents unchanged). */
describe("testing kit: Struct bytes", () => {
  const samples: Record<string, Plain> = {
    empty: {},
    scalars: { s: "text", empty: "", n: 42, negative: -7, fraction: 0.1, big: 2 ** 53 + 2, tiny: 5e-324, zero: 0, minusZero: -0, t: true, f: false, nil: null },
    "odd numbers": { nan: NaN, inf: Infinity, negInf: -Infinity, max: Number.MAX_VALUE },
    nested: { origin: { storageZoneId: 12, url: "https://x.example", headers: { a: "1", b: { c: [] } } }, emptyObject: {} },
    lists: { ports: [80, 443], mixed: [null, "a", 1, true, { k: "v" }, [1, [2, []]]], none: [] },
    "keys sorted as JavaScript sorts them": { b: 1, a: 2, B: 3, "10": 4, "9": 5, "": 6, "é": 7, "z-": 8, "_": 9 },
    unicode: { text: "héllo ✓ 日本 😀", "ключ": "значение", emoji: ["😀", "a😀b"] },
    "long strings": { long: "x".repeat(100_000), medium: "y".repeat(200), lengths: ["a".repeat(127), "b".repeat(128), "c".repeat(16_384)] },
    "a provider text": { __provider: 'exports.handler = function () {\n  return require("x").providerFor("DnsZone");\n};\n', domain: "a.example" },
  };

  for (const [name, value] of Object.entries(samples)) {
    it(name, () => assert.deepEqual(bytesOf(structForSending(value)), protobufBytes(value)));
  }

  it("text with a lone surrogate is left to google-protobuf", () => {
    const value = { bad: "a\uD800b", alsoBad: ["\uDC00"], good: "😀" };
    assert.deepEqual(bytesOf(structForSending(value)), protobufBytes(value));
  });

  it("inside a request, as the gRPC client serializes it", () => {
    const proto = pulumiRequire("@pulumi/pulumi/proto/provider_pb") as Record<string, new () => Record<string, (v?: unknown) => Uint8Array>>;
    const request = (struct: (v: Plain) => unknown) => {
      const req = new proto.CheckRequest!();
      req.setUrn!("urn:pulumi:test::p::bunnynet:index:DnsZone::z");
      req.setOlds!(struct({}));
      req.setNews!(struct(samples.nested!));
      req.setName!("z");
      return Buffer.from(req.serializeBinary!());
    };
    assert.deepEqual(request(structForSending), request((v) => Struct.fromJavaScript(v)));
  });

  it("refuses what google-protobuf refuses", () => {
    for (const bad of [{ u: undefined }, { l: [undefined] }, { f: () => 1 }, { b: 1n }]) {
      assert.throws(() => Struct.fromJavaScript(bad), /Unexpected struct type/);
      assert.throws(() => structForSending(bad), /Unexpected struct type/);
    }
  });
});

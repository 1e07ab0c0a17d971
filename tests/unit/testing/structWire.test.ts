import assert from "node:assert/strict";
import { Struct, pulumiRequire } from "bunnynet-emulator/dist/testing/sdkModules.js";
import { partResponse, structForSending, structFromBytes } from "bunnynet-emulator/dist/testing/structWire.js";
import type { Plain } from "bunnynet-emulator/dist/testing/wire.js";

type Serializable = { serializeBinary(): Uint8Array };
const bytesOf = (struct: unknown) => Buffer.from((struct as Serializable).serializeBinary());
const protobufBytes = (value: Plain) => bytesOf(Struct.fromJavaScript(value));

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

type GeneratedMessage = Record<string, (v?: unknown) => Uint8Array>;
const proto = pulumiRequire("@pulumi/pulumi/proto/provider_pb") as Record<string, (new () => GeneratedMessage) & { deserializeBinary(b: Uint8Array): GeneratedMessage }>;
const StructClass = Struct as unknown as { deserializeBinary(b: Uint8Array): { toJavaScript(): Plain } };
const protobufValues = (bytes: Uint8Array) => StructClass.deserializeBinary(bytes).toJavaScript();

/** The kit's own Struct encoding sends exactly the bytes google-protobuf's would (the engine's wire contents unchanged). */
describe("testing kit: Struct bytes", () => {

  for (const [name, value] of Object.entries(samples)) {
    it(name, () => assert.deepEqual(bytesOf(structForSending(value)), protobufBytes(value)));
  }

  it("text with a lone surrogate is left to google-protobuf", () => {
    const value = { bad: "a\uD800b", alsoBad: ["\uDC00"], good: "😀" };
    assert.deepEqual(bytesOf(structForSending(value)), protobufBytes(value));
  });

  it("inside a request, as the gRPC client serializes it", () => {
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

/** …and reads the plugin's answers as google-protobuf's toJavaScript would, keys in the same order. */
describe("testing kit: Struct values read back", () => {
  const sameAsProtobuf = (bytes: Buffer) => {
    const ours = structFromBytes(bytes);
    const theirs = protobufValues(bytes);
    assert.deepEqual(ours, theirs);
    assert.equal(JSON.stringify(ours), JSON.stringify(theirs));
  };

  for (const [name, value] of Object.entries(samples)) {
    it(name, () => sameAsProtobuf(protobufBytes(value)));
  }

  it("what is unusual is read by google-protobuf: a lone surrogate, U+FFFD, `__proto__`, a repeated key", () => {
    sameAsProtobuf(protobufBytes({ bad: "a\uD800b", replacement: "\uFFFD" }));
    sameAsProtobuf(protobufBytes({ ["__proto__"]: "x" } as Plain));
    const entry = protobufBytes({ k: "first" });
    sameAsProtobuf(Buffer.concat([entry, protobufBytes({ k: "second" })]));
  });

  it("a Value with no kind is refused as google-protobuf refuses it", () => {
    const noKind = Buffer.from([0x0a, 0x05, 0x0a, 0x01, 0x6b, 0x12, 0x00]); // { k: Value{} }
    assert.throws(() => protobufValues(noKind), /Unexpected struct type/);
    assert.throws(() => structFromBytes(noKind), /Unexpected struct type/);
  });

  it("a response's properties are parted from its other fields, which the generated class reads", () => {
    const res = new proto.ReadResponse!();
    res.setId!("42");
    res.setProperties!(Struct.fromJavaScript(samples.nested!));
    res.setInputs!(Struct.fromJavaScript({}));
    res.setRefreshBeforeUpdate!(true);
    const { rest, structs } = partResponse(Buffer.from(res.serializeBinary!()), [2, 3]);
    assert.deepEqual(structs, new Map([[2, samples.nested], [3, {}]]));
    const others = proto.ReadResponse!.deserializeBinary(rest);
    assert.equal(others.getId!(), "42");
    assert.equal(others.getRefreshBeforeUpdate!(), true);
    assert.equal(others.getProperties!(), undefined);
  });

  it("a response without the Struct field has none", () => {
    const res = new proto.ReadResponse!();
    res.setId!("");
    assert.deepEqual(partResponse(Buffer.from(res.serializeBinary!()), [2, 3]).structs, new Map());
  });
});

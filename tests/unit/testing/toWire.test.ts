import assert from "node:assert/strict";
import { OWNER_KEY, PROVIDER_KEY } from "bunnynet-pulumi/dist/pulumi/index.js";
import { secret, toWire, withoutProvider } from "bunnynet-emulator/dist/testing/wire.js";

/** Properties as the engine sends them to a provider that does not accept secrets (the dynamic host). */
describe("testing kit: properties on the wire", () => {
  it("secrets become their plain values at any depth; undefined values are left out; arrays keep their order", () => {
    const wire = toWire({ a: secret("s"), b: undefined, c: { d: [1, secret({ e: "x", f: undefined })], g: null }, h: secret(undefined) });
    assert.deepEqual(wire, { a: "s", c: { d: [1, { e: "x" }], g: null }, h: undefined });
    assert.deepEqual(Object.keys(wire as object), ["a", "c", "h"]);
  });

  it("a key named __proto__ stays a property, as JSON.parse makes it", () => {
    const wire = toWire(JSON.parse('{"__proto__": {"x": 1}, "y": 2}')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(wire), ["__proto__", "y"]);
    assert.equal(Object.getPrototypeOf(wire), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(wire, "__proto__")?.value, { x: 1 });
  });

  it("withoutProvider leaves out the provider text and the owner's URN only, and leaves its argument alone", () => {
    const props = { [PROVIDER_KEY]: "text", [OWNER_KEY]: "urn:pulumi:s::p::t::n", a: 1 };
    assert.deepEqual(withoutProvider(props), { a: 1 });
    assert.deepEqual(props, { [PROVIDER_KEY]: "text", [OWNER_KEY]: "urn:pulumi:s::p::t::n", a: 1 });
  });
});

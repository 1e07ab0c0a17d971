import assert from "node:assert/strict";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { z } from "zod";
import { PROVIDER_KEY, checkInputs } from "bunnynet-pulumi/dist/pulumi/index.js";

/** A schema with what the resources' schemas use: defaults, conversions, enums, a nested strict object, an array. */
const widget = z
  .object({
    name: z.string().min(1, "must not be empty"),
    size: z.number().int().default(1),
    region: z.enum(["de", "ny"]),
    limits: z
      .object({ count: z.number().max(10), label: z.string().transform((s) => s.trim()), pin: z.string().length(6).optional() })
      .strict()
      .optional(),
    tags: z.array(z.string().transform((s) => s.toLowerCase())).optional(),
    window: z
      .object({ from: z.number(), to: z.number() })
      .strict()
      .refine((w) => w.from < w.to, { path: ["to"], message: "must be after from" })
      .optional(),
  })
  .strict();

describe("unit: checkInputs (validation and normalisation without the API)", () => {
  it("applies defaults and conversions, exactly as a deployment would", () => {
    const result = checkInputs(widget, { name: "a", region: "de", tags: ["A", "B"], limits: { count: 2, label: "  x " } });
    assert.deepEqual(result, { inputs: { name: "a", size: 1, region: "de", tags: ["a", "b"], limits: { count: 2, label: "x" } }, failures: [] });
  });

  it("leaves out the provider text and undefined values (the engine's wire format cannot carry them)", () => {
    const result = checkInputs(widget, { name: "a", region: "ny", limits: undefined, [PROVIDER_KEY]: "exports.handler = ..." });
    assert.deepEqual(result.inputs, { name: "a", size: 1, region: "ny" });
    assert.ok(!("limits" in result.inputs), "an undefined value is left out, not kept as a key");
  });

  it("names the property of each bad value, with its path when nested, and gives the inputs back as they came", () => {
    const news = { name: "", region: "fr", limits: { count: 11, label: "x" } };
    const result = checkInputs(widget, news);
    assert.deepEqual(
      result.failures?.map((f) => f.property),
      ["name", "region", "limits.count"],
    );
    assert.equal(result.failures?.[0].reason, "must not be empty");
    assert.deepEqual(result.inputs, news);
  });

  it("refuses an unknown key by name; at the top level the reason lists the expected ones", () => {
    assert.deepEqual(checkInputs(widget, { name: "a", region: "de", colour: "red" }).failures, [
      { property: "colour", reason: "unknown property (expected one of name, size, region, limits, tags, window)" },
    ]);
    assert.deepEqual(checkInputs(widget, { name: "a", region: "de", limits: { count: 1, label: "x", extra: 1 } }).failures, [{ property: "limits.extra", reason: "unknown property" }]);
  });

  it("does not judge a top-level value not known yet (preview): it stays unknown and the rest is normalised", () => {
    const result = checkInputs(widget, { name: unknownValue, region: "de" });
    assert.deepEqual(result, { inputs: { name: unknownValue, size: 1, region: "de" }, failures: [] });
  });

  it("keeps a nested unknown value in place while its siblings are normalised", () => {
    const result = checkInputs(widget, { name: "a", region: "de", limits: { count: unknownValue, label: "  x " }, tags: ["A", unknownValue] });
    assert.deepEqual(result, { inputs: { name: "a", size: 1, region: "de", limits: { count: unknownValue, label: "x" }, tags: ["a", unknownValue] }, failures: [] });
  });

  it("reports no failure where the value is unknown, and still reports the known ones", () => {
    const result = checkInputs(widget, { name: "", region: unknownValue, tags: unknownValue });
    assert.deepEqual(
      result.failures?.map((f) => f.property),
      ["name"],
    );
  });

  it("does not judge a rule across properties against the stand-in of an unknown value", () => {
    assert.deepEqual(checkInputs(widget, { name: "a", region: "de", window: { from: 5, to: 1 } }).failures, [{ property: "window.to", reason: "must be after from" }]);
    const atPreview = checkInputs(widget, { name: "a", region: "de", window: { from: 5, to: unknownValue } });
    assert.deepEqual(atPreview.failures, []);
    assert.deepEqual(atPreview.inputs.window, { from: 5, to: unknownValue });
  });

  it("leaves a property unjudged, as it came, when a nested unknown has no value its schema accepts to stand in for it", () => {
    // No stand-in is 6 characters long: `limits` passes through whole, so its bad count is not judged at preview.
    const news = { name: "a", region: "de", limits: { count: 99, label: " x ", pin: unknownValue } };
    assert.deepEqual(checkInputs(widget, news), { inputs: { name: "a", size: 1, region: "de", limits: news.limits }, failures: [] });
  });
});

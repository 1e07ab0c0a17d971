/**
 * What the schema generator (generateSchema.mjs, schemaTypes.mjs, schemaEnums.mjs) reads besides the TypeScript types
 * and the names it gives: the facts of the runtime zod schemas (integers, defaults), the names of ids, how a stored
 * output is read back, the schema's key order. Pure functions, tested in tests/unit/scripts/schemaTypes.test.ts through
 * schemaTypes.mjs, which re-exports them.
 */

import ts from "typescript";

/** The Pulumi SDK's wrappers around a value, unwrapped to the value. */
export const WRAPPERS = new Set(["Input", "Output", "OutputInstance", "Promise", "Lifted"]);

export const pascal = (s) => s.replace(/(^|[_\s-]+)(\w)/g, (_m, _sep, c) => c.toUpperCase()).replace(/^\w/, (c) => c.toUpperCase());

/** The name of an interface as a schema type: without its Args/Outputs suffix. */
export const baseName = (name) => name.replace(/(Args|Outputs|Output|Result|Info)$/, "") || name;

export function documentation(checker, symbol) {
  if (!symbol) return "";
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
}

/** Keys sorted, recursively: the schema is diffed by CI, so its text must not depend on discovery order. */
export function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
  return value;
}

/**
 * What the runtime schema says about a value that the TypeScript type does not: integer, default, and the same facts
 * of its elements and properties. Reads zod v4's public `def`s; unknown kinds give no facts (the type decides).
 */
export function zodFacts(schema) {
  const facts = {};
  let s = schema;
  for (let guard = 0; s && guard < 20; guard++) {
    const def = s._zod?.def ?? s.def;
    if (!def) break;
    if (def.type === "default" || def.type === "prefault") {
      if (!("default" in facts)) {
        const value = typeof def.defaultValue === "function" ? def.defaultValue() : def.defaultValue;
        facts.default = value;
      }
      s = def.innerType;
    } else if (def.type === "optional" || def.type === "nullable" || def.type === "readonly" || def.type === "catch" || def.type === "nonoptional") {
      s = def.innerType;
    } else if (def.type === "pipe") {
      // The input side is what a program writes; a transform on the input side leaves the output side to tell.
      const inDef = def.in?._zod?.def;
      s = inDef && inDef.type !== "transform" && inDef.type !== "unknown" && inDef.type !== "any" ? def.in : def.out;
    } else if (def.type === "lazy") {
      s = def.getter();
    } else break;
  }
  const def = s?._zod?.def;
  if (!def) return facts;
  if (def.type === "number") facts.integer = s.format === "safeint" || s.format === "int32" || s.format === "uint32" || s.isInt === true;
  if (def.type === "union") {
    const members = def.options.map(zodFacts);
    if (members.some((m) => m.integer)) facts.integer = true;
    const objects = members.filter((m) => m.properties);
    if (objects.length === 1) facts.properties = objects[0].properties;
    const elements = members.filter((m) => m.element);
    if (elements.length === 1) facts.element = elements[0].element;
  }
  if (def.type === "array") facts.element = zodFacts(def.element);
  if (def.type === "record") facts.element = zodFacts(def.valueType);
  if (def.type === "object") facts.properties = Object.fromEntries(Object.entries(def.shape).map(([k, v]) => [k, zodFacts(v)]));
  return facts;
}

/** `id`, `pullZoneId`, `replicationRegionIds`: the name of an id, or of a list of them. */
export const isIdName = (name) => /(^id|Id)s?$/.test(name);

/**
 * A stored output's spec as every SDK can read it back: a `oneOf` with an array, a map or an object type among its
 * members becomes `pulumi.json#/Any` (its description and secret flag kept). Pulumi's Python SDK cannot turn such an
 * output back into a value: `translate_output_properties` (sdk/python/lib/pulumi/runtime/rpc.py, pulumi/pulumi
 * v3.259.0) reduces only discriminated unions and raises "Unexpected type" on a dict or list typed by any other union
 * (a CachePurge's `triggers` given as a map failed every `up` of a Python program). Inputs keep their `oneOf`, which
 * every SDK sends as it is. `types` resolves the schema's `#/types/` references.
 */
export function storedOutputSpec(spec, types) {
  const container = (member) =>
    member.type === "array" || member.type === "object" || (typeof member.$ref === "string" && types.get(member.$ref.replace("#/types/", ""))?.type === "object");
  if (!spec.oneOf?.some(container)) return spec;
  const { oneOf: _members, ...rest } = spec;
  return { ...rest, $ref: "pulumi.json#/Any" };
}

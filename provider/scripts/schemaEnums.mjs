/**
 * Enums in the Pulumi package schema (schemaTypes.mjs calls these): every enum is written as a *relaxed* enum, a
 * `oneOf` of the enum type and the plain values the provider accepts, so each language takes what the reference pages
 * show and still offers the enum's members. How each generator and YAML read that (pulumi/pulumi pkg/v3 v3.276.0,
 * pulumi-yaml v1.25.0):
 * - Python (pkg/codegen/python/gen.go, typeString): an enum alone is its class (line 2907), which mypy and pyright
 *   refuse a plain `"DE"` for; a union is `Union[...]` of its members (lines 2953-2981), so a relaxed enum takes the
 *   member or the plain value; an output of a relaxed enum is its element type (lines 2955-2961).
 * - Go (pkg/codegen/go/gen.go, inputType, lines 463-470, and the same rule in every type function, e.g. 419, 515, 630):
 *   a union holding an enum is that enum's element type (`pulumi.StringInput`, `pulumi.IntInput`), which the enum's
 *   constants implement; any other union is the untyped `pulumi.Input`. So a value given by name or number is typed
 *   by a string enum of its names: a union of strings and numbers with no enum would be `pulumi.Input`.
 * - YAML (pkg/pulumiyaml/analyser.go, isAssignable): a union takes a value assignable to any member (line 315); an
 *   enum of integers takes no name ("Cannot assign type 'string'"), and its value check compares a number with the
 *   bound values as float64 while the schema binder stores integers as int32 (pkg/codegen/schema/bind.go,
 *   bindConstValue, line 1340), so every number on an integer enum warned "internal error: … not assignable"
 *   (analyser.go lines 510 and 586). In a relaxed enum the plain member takes the value, and a union reports nothing when
 *   one member takes it.
 * A value outside the enum passes these checkers and is refused at preview by the provider's check, naming the property.
 */

import ts from "typescript";
import { WRAPPERS, baseName, documentation, pascal } from "./schemaFacts.mjs";

/** An enum member's name in the SDKs: the value made an identifier (`"free"` → Free, `"4.0"` → Value4_0, 1 → Value1). */
export function enumMemberName(value) {
  const words = String(value)
    .replace(/[^A-Za-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1));
  const name = words.join("") || "Empty";
  return /^[0-9]/.test(name) ? `Value${String(value).replace(/[^A-Za-z0-9]+/g, "_")}` : name;
}

/**
 * The enum `token` with the plain values it stands for: `elementTypes` in the order YAML tries them after the enum
 * (`integer` before `string` for an integer enum that also takes names).
 */
export function relaxedEnum(token, elementTypes) {
  return { oneOf: [{ $ref: `#/types/${token}` }, ...elementTypes.map((type) => ({ type }))] };
}

/**
 * A function result's property as Python can read it: the enum alone where it is a relaxed enum. The generated result
 * class checks each property with `isinstance(value, pyType)`, and pyType is `dict` for any union (pkg/codegen/python/
 * gen.go, genAwaitableType lines 1359-1371, pyType line 3035), so a relaxed enum there failed every call ("Expected
 * argument 'type' to be a dict"). `types` resolves the schema's `#/types/` references.
 */
export function resultProperty(spec, types) {
  const enumRef = spec.oneOf?.[0]?.$ref;
  if (typeof enumRef !== "string" || !types.get(enumRef.replace("#/types/", ""))?.enum) return spec;
  const { oneOf: _members, ...rest } = spec;
  return { ...rest, $ref: enumRef };
}

/**
 * One spelling of each name accepted in several cases (`"cname" | "CNAME"`, `"flatten" | "Flatten" | "FLATTEN"`): the
 * mixed-case one where there is one (the API's own), else the upper-case one.
 */
export function canonicalNames(values) {
  const byLower = new Map();
  for (const value of values) (byLower.get(value.toLowerCase()) ?? byLower.set(value.toLowerCase(), []).get(value.toLowerCase())).push(value);
  const rank = (v) => (v !== v.toLowerCase() && v !== v.toUpperCase() ? 0 : v === v.toUpperCase() ? 1 : 2);
  return [...byLower.values()].map((spellings) => [...spellings].sort((a, b) => rank(a) - rank(b))[0]);
}

/** The `enum` list of an enum type: members named after their values, sorted, names made unique. */
export function enumMembers(values, numeric) {
  const members = [...values]
    .sort((a, b) => (numeric ? a - b : String(a).localeCompare(String(b))))
    .map((value) => ({ name: enumMemberName(value), value }));
  const seen = new Map();
  for (const member of members) {
    const n = (seen.get(member.name.toLowerCase()) ?? 0) + 1;
    seen.set(member.name.toLowerCase(), n);
    if (n > 1) member.name = `${member.name}${n}`;
  }
  return members;
}

/**
 * An API enum given by name or number (`EnumInput<typeof AccessListType>`, `EnumNumber<…>`: a generic alias over a
 * constant object of number literals): an integer enum named after the constant, its members after its keys.
 */
export function numericEnumSpec(types, type, at) {
  if (type.aliasTypeArguments?.length !== 1) return undefined;
  const takesNames = (type.isUnion?.() ? type.types : [type]).some((t) => t.flags & ts.TypeFlags.StringLiteral);
  return numericEnumOf(types, type.aliasTypeArguments[0], at, takesNames);
}

/** The same, written out (`keyof typeof EncodingTier | (typeof EncodingTier)[keyof typeof EncodingTier]`): the one constant the property's type names. */
function numericEnumInNode(types, at, takesNames) {
  const found = [];
  const visit = (node) => {
    if (ts.isTypeQueryNode(node)) found.push(types.checker.getTypeFromTypeNode(node));
    ts.forEachChild(node, visit);
  };
  if (at.typeNode) visit(at.typeNode);
  const constants = [...new Set(found)];
  return constants.length === 1 ? numericEnumOf(types, constants[0], at, takesNames) : undefined;
}

/** The integer enum of a constant's members; `takesNames`: the property also takes a member's name. */
function numericEnumOf(types, values, at, takesNames) {
  if (!(values.flags & ts.TypeFlags.Object)) return undefined;
  const members = types.checker.getPropertiesOfType(values).map((p) => [p.name, types.checker.getTypeOfSymbol(p)]);
  if (members.length === 0 || !members.every(([, t]) => t.flags & ts.TypeFlags.NumberLiteral)) return undefined;
  let node = values.getSymbol()?.declarations?.[0];
  while (node && !ts.isVariableDeclaration(node)) node = node.parent;
  if (!node) throw new Error(`${at.where}: a numeric enum's values must be a named constant (const X = { … } as const)`);
  const spec = {
    type: "integer",
    enum: members.sort(([, a], [, b]) => a.value - b.value).map(([name, t]) => ({ name: enumMemberName(name), value: t.value })),
  };
  const description = documentation(types.checker, types.checker.getSymbolAtLocation(node.name));
  if (description) spec.description = description;
  return relaxedEnum(types.define(pascal(node.name.text), spec), takesNames ? ["integer", "string"] : ["integer"]);
}

/** An enum of literals (`"alpha" | "beta"`, `1 | 2`, `"CNAME" | 5`), as a relaxed enum. */
export function literalEnumSpec(types, literals, at, aliasName, facts) {
  const values = [...new Set(literals.map((l) => l.value))];
  const numeric = values.every((v) => typeof v === "number");
  const strings = values.filter((v) => typeof v === "string");
  if (strings.length !== values.length) {
    const named = numericEnumInNode(types, at, strings.length > 0);
    if (named) return named;
  }
  const name = aliasName && !WRAPPERS.has(aliasName) ? pascal(aliasName) : `${pascal(baseName(at.owner))}${pascal(at.property)}`;
  // Names or numbers with no constant to pair them (`"CNAME" | "cname" | 5`): an enum of the names, one spelling
  // each, that also takes any string or integer (the provider's check tells a wrong one).
  if (!numeric && strings.length !== values.length) {
    return relaxedEnum(types.define(name, { type: "string", enum: enumMembers(canonicalNames(strings), false) }), ["string", "integer"]);
  }
  const type = numeric ? (facts.integer || values.every(Number.isInteger) ? "integer" : "number") : "string";
  // Values that differ only in case (`"cdn" | "CDN"`, both accepted) would be one member name twice in every SDK:
  // the lower-case one is listed (a program may still pass the other as a plain string).
  const listed = numeric ? values : values.filter((v) => v === v.toLowerCase() || !values.includes(v.toLowerCase()));
  return relaxedEnum(types.define(name, { type, enum: enumMembers(listed, numeric) }), [type]);
}

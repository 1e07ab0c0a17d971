/**
 * The type mapping of the Pulumi package schema (generateSchema.mjs): TypeScript declarations, read with the compiler
 * API, become the schema's property specs, with facts only the runtime definition knows (zod: integers, defaults).
 * Pure logic over a TypeScript program, so that tests/unit/scripts/schemaTypes.test.ts tests it on small sources.
 *
 * The schema's shapes are those of Pulumi's metaschema (pkg/codegen/schema/pulumi.json in pulumi/pulumi v3.259.0:
 * $defs typeSpec, propertySpec, objectTypeSpec, enumTypeSpec). Mapping:
 * - `pulumi.Input<T>` and `pulumi.Output<T>` are unwrapped; `undefined` and `null` make a property optional;
 * - string, boolean; number is `integer` where the zod schema says int (`.int()`) or the name is an id's (`…Id`,
 *   `…Ids`: bunny.net's numeric ids are integers), else `number`; `number | string` (an id as a number or digits)
 *   is `integer` on the same terms;
 * - a union of string (or number) literals is an enum type `bunnynet:index:<Name>`, named after its alias, else after
 *   its owner and property: every language's compiler then catches a misspelt value;
 * - `T[]` is an array, `Record<string, T>` (an index signature) a map, an interface or object literal an object type
 *   `bunnynet:index:<Name>` in `types` (interface names lose their Args/Outputs suffix; literals are named after owner
 *   and property);
 * - Pulumi assets and archives are `pulumi.json#/Asset` and `pulumi.json#/Archive`; `unknown` is `pulumi.json#/Any`;
 * - any other union (`"none" | "free" | { … }`, `number | string` without a zod fact) is a `oneOf` of its members'
 *   types, with enums widened to their element type (Go's generator types a union holding an enum as that enum's
 *   element type, pkg/codegen/go/gen.go argsTypeImpl, so the object member would be lost).
 */
import ts from "typescript";

export const PACKAGE = "bunnynet";
const TYPE_PREFIX = `${PACKAGE}:index:`;

const ASSETS = new Set(["Asset", "FileAsset", "StringAsset", "RemoteAsset"]);
const ARCHIVES = new Set(["Archive", "AssetArchive", "FileArchive", "RemoteArchive"]);
/** The Pulumi SDK's wrappers around a value, unwrapped to the value. */
const WRAPPERS = new Set(["Input", "Output", "OutputInstance", "Promise", "Lifted"]);

export const pascal = (s) => s.replace(/(^|[_\s-]+)(\w)/g, (_m, _sep, c) => c.toUpperCase()).replace(/^\w/, (c) => c.toUpperCase());

/** The name of an interface as a schema type: without its Args/Outputs suffix. */
export const baseName = (name) => name.replace(/(Args|Outputs|Output|Result|Info)$/, "") || name;

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

const defaultFits = (spec, value) =>
  (spec.type === "string" && typeof value === "string") ||
  (spec.type === "boolean" && typeof value === "boolean") ||
  (spec.type === "number" && typeof value === "number") ||
  (spec.type === "integer" && Number.isInteger(value));

/** A JSON value the schema can carry as a property's `default` (booleans, numbers, strings only). */
const isSchemaDefault = (v) => typeof v === "boolean" || typeof v === "string" || (typeof v === "number" && Number.isFinite(v));

export function documentation(checker, symbol) {
  if (!symbol) return "";
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
}

function stableStringify(v) {
  return JSON.stringify(sortKeys(v));
}

/**
 * Collects the schema's `types` while mapping properties. One instance per schema: object and enum types met in
 * several resources are written once; two different shapes under one name are told apart (see `define`).
 */
export class SchemaTypes {
  constructor(checker) {
    this.checker = checker;
    /** token → spec */
    this.types = new Map();
    /** TS type → token (object types met again) */
    this.known = new Map();
  }

  /** The `{ properties, required }` of an object type (an interface, or the type of a function's arguments). */
  objectSpec(type, owner, facts = {}, extra = {}) {
    const checker = this.checker;
    const properties = {};
    const required = [];
    for (const symbol of checker.getPropertiesOfType(type)) {
      if (extra.skipUndefined && checker.getTypeOfSymbol(symbol).flags & ts.TypeFlags.Undefined) continue;
      this.propertyInto(symbol, symbol.name, owner, facts, extra, properties, required);
    }
    return { properties, required: required.sort() };
  }

  /** The `{ properties, required }` of one named value (a lookup's single parameter), as a one-property object. */
  objectSpecOfProperty(symbol, owner) {
    const properties = {};
    const required = [];
    this.propertyInto(symbol, symbol.name, owner, {}, {}, properties, required);
    return { properties, required };
  }

  /** Adds one property's spec to `properties` (and its name to `required` unless optional). */
  propertyInto(symbol, name, owner, facts, extra, properties, required) {
    const checker = this.checker;
    const where = `${owner}.${name}`;
    const propertyFacts = { ...(facts.properties?.[name] ?? {}) };
    // bunny.net's numeric ids are integers in every API (schemas/common.ts: positiveId), also where no runtime schema
    // says so (computed outputs, lookups): typed so in Go, an id output can be passed to an id input.
    if (propertyFacts.integer === undefined && isIdName(name)) {
      propertyFacts.integer = true;
      propertyFacts.element = { ...propertyFacts.element, integer: propertyFacts.element?.integer ?? true };
    }
    // The written type (`pulumi.Input<DnsRecordType>`), not the flattened `… | undefined` of an optional property: its
    // aliases name the enums.
    const typeNode = symbol.valueDeclaration?.type;
    const declared = typeNode ? checker.getTypeFromTypeNode(typeNode) : checker.getTypeOfSymbol(symbol);
    const { type: valueType, optional } = this.unwrap(declared);
    const spec = this.typeSpec(valueType, { owner, property: name, where, typeNode }, propertyFacts);
    const description = documentation(checker, symbol);
    if (description) spec.description = description;
    // Only on a plain string, number or boolean: on an enum or a union Go's generator writes a default that does not
    // compile (v3.276.0: `pulumi.("MatchAny")`); the provider applies the default all the same.
    if (isSchemaDefault(propertyFacts.default) && extra.defaults !== false && defaultFits(spec, propertyFacts.default)) spec.default = propertyFacts.default;
    if (extra.secret?.has(name)) spec.secret = true;
    if (extra.replaceOnChanges?.has(name)) spec.replaceOnChanges = true;
    properties[name] = spec;
    if (!optional && !(symbol.flags & ts.SymbolFlags.Optional) && !(symbol.valueDeclaration && ts.isParameter(symbol.valueDeclaration) && symbol.valueDeclaration.initializer)) required.push(name);
  }

  /** The value type with the SDK's wrappers, `undefined` and `null` taken off; optional when either was there. */
  unwrap(type) {
    let optional = false;
    let current = type;
    for (let guard = 0; guard < 10; guard++) {
      const wrapped = this.wrapped(current);
      if (wrapped) {
        current = wrapped;
        continue;
      }
      if (current.isUnion()) {
        const kept = [];
        for (const member of current.types) {
          if (member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)) optional = true;
          else if (this.wrapperName(member)) continue; // Promise<T> and Output<T> beside T
          else kept.push(member);
        }
        if (kept.length === current.types.length) break;
        current = kept.length === 1 ? kept[0] : { union: kept };
        if (!current.union) continue;
        return { type: current, optional };
      }
      break;
    }
    return { type: current, optional };
  }

  wrapperName(type) {
    const symbol = type.aliasSymbol ?? type.getSymbol?.();
    if (!symbol || !WRAPPERS.has(symbol.name)) return undefined;
    const file = symbol.declarations?.[0]?.getSourceFile().fileName ?? "";
    return /@pulumi[\\/]pulumi|typescript[\\/]lib/.test(file) ? symbol.name : undefined;
  }

  /** T of `pulumi.Input<T>`, `Output<T>` or `Promise<T>`, else undefined. */
  wrapped(type) {
    const name = this.wrapperName(type);
    if (!name) return undefined;
    const args = type.aliasSymbol && WRAPPERS.has(type.aliasSymbol.name) ? type.aliasTypeArguments : this.checker.getTypeArguments?.(type);
    return args?.[0];
  }

  /** The schema type of a value type (already unwrapped). `at` names the owner and property, for names and errors. */
  typeSpec(type, at, facts = {}) {
    const checker = this.checker;
    if (type.union) return this.unionSpec(type.union, at, facts);
    const again = this.unwrap(type);
    if (again.type !== type) return this.typeSpec(again.type, at, facts);
    const symbol = type.aliasSymbol ?? type.getSymbol();
    if (symbol && ASSETS.has(symbol.name) && this.fromPulumi(symbol)) return { $ref: "pulumi.json#/Asset" };
    if (symbol && ARCHIVES.has(symbol.name) && this.fromPulumi(symbol)) return { $ref: "pulumi.json#/Archive" };
    // A Date crosses the wire as its ISO text.
    if (symbol?.name === "Date" && isLibrarySymbol(symbol)) return { type: "string" };
    const numericEnum = this.numericEnum(type, at);
    if (numericEnum) return numericEnum;
    if (type.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return { type: "boolean" };
    if (type.flags & ts.TypeFlags.String) return { type: "string" };
    if (type.flags & ts.TypeFlags.Number) return { type: facts.integer ? "integer" : "number" };
    if (type.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) return { $ref: "pulumi.json#/Any" };
    if (type.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral)) return this.enumSpec([type], at, type.aliasSymbol?.name, facts);
    if (type.isUnion()) return this.unionSpec(type.types, at, facts, type.aliasTypeArguments?.length ? undefined : type.aliasSymbol?.name);
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      const [element] = checker.getTypeArguments(type);
      return { type: "array", items: this.typeSpec(this.unwrap(element).type, { ...at, property: `${at.property}Item` }, facts.element ?? {}) };
    }
    if (type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) {
      const index = checker.getIndexInfosOfType(type).find((i) => i.keyType.flags & ts.TypeFlags.String);
      if (index && checker.getPropertiesOfType(type).length === 0) {
        return { type: "object", additionalProperties: this.typeSpec(this.unwrap(index.type).type, at, facts.element ?? {}) };
      }
      return { $ref: `#/types/${this.objectType(type, at, facts)}` };
    }
    throw new Error(`${at.where}: no schema type for ${checker.typeToString(type)}`);
  }

  /**
   * An API enum given by name or number (`EnumInput<typeof AccessListType>`, `EnumNumber<…>`: a generic alias over a
   * constant object of number literals): an integer enum named after the constant, its members after its keys.
   */
  numericEnum(type, at) {
    if (type.aliasTypeArguments?.length !== 1) return undefined;
    return this.numericEnumOf(type.aliasTypeArguments[0], at);
  }

  /** The same, written out (`keyof typeof EncodingTier | (typeof EncodingTier)[keyof typeof EncodingTier]`): the one constant the property's type names. */
  numericEnumInNode(at) {
    const found = [];
    const visit = (node) => {
      if (ts.isTypeQueryNode(node)) found.push(this.checker.getTypeFromTypeNode(node));
      ts.forEachChild(node, visit);
    };
    if (at.typeNode) visit(at.typeNode);
    const constants = [...new Set(found)];
    return constants.length === 1 ? this.numericEnumOf(constants[0], at) : undefined;
  }

  numericEnumOf(values, at) {
    if (!(values.flags & ts.TypeFlags.Object)) return undefined;
    const members = this.checker.getPropertiesOfType(values).map((p) => [p.name, this.checker.getTypeOfSymbol(p)]);
    if (members.length === 0 || !members.every(([, t]) => t.flags & ts.TypeFlags.NumberLiteral)) return undefined;
    let node = values.getSymbol()?.declarations?.[0];
    while (node && !ts.isVariableDeclaration(node)) node = node.parent;
    if (!node) throw new Error(`${at.where}: a numeric enum's values must be a named constant (const X = { … } as const)`);
    const spec = {
      type: "integer",
      enum: members.sort(([, a], [, b]) => a.value - b.value).map(([name, t]) => ({ name: enumMemberName(name), value: t.value })),
    };
    const description = documentation(this.checker, this.checker.getSymbolAtLocation(node.name));
    if (description) spec.description = description;
    return { $ref: `#/types/${this.define(pascal(node.name.text), spec)}` };
  }

  fromPulumi(symbol) {
    return (symbol.declarations ?? []).some((d) => /@pulumi[\\/]pulumi/.test(d.getSourceFile().fileName));
  }

  unionSpec(members, at, facts, aliasName) {
    const checker = this.checker;
    let kept = members;
    // `true | false` is boolean.
    if (kept.filter((m) => m.flags & ts.TypeFlags.BooleanLiteral).length === 2) {
      kept = [...kept.filter((m) => !(m.flags & ts.TypeFlags.BooleanLiteral)), { boolean: true }];
    }
    const literals = kept.filter((m) => m.flags && m.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral));
    if (literals.length === kept.length) return this.enumSpec(literals, at, aliasName, facts);
    // An open enum ("a" | "b" | string) is a string.
    if (kept.some((m) => m.flags & ts.TypeFlags.String) && kept.every((m) => m.flags & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral))) return { type: "string" };
    // An id taken as a number or a string of digits: the runtime schema says which it becomes.
    const primitives = kept.every((m) => m.flags & (ts.TypeFlags.String | ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral | ts.TypeFlags.StringLiteral));
    if (primitives && facts.integer) return { type: "integer" };
    const specs = [];
    const stringLiterals = literals.filter((m) => m.flags & ts.TypeFlags.StringLiteral);
    const numberLiterals = literals.filter((m) => m.flags & ts.TypeFlags.NumberLiteral);
    if (stringLiterals.length > 0 && !kept.some((m) => m.flags && m.flags & ts.TypeFlags.String)) specs.push({ type: "string" });
    if (numberLiterals.length > 0 && !kept.some((m) => m.flags && m.flags & ts.TypeFlags.Number)) specs.push({ type: facts.integer ? "integer" : "number" });
    for (const m of kept) {
      if (m.boolean) specs.push({ type: "boolean" });
      else if (!(m.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral))) specs.push(this.typeSpec(m, at, m.flags & ts.TypeFlags.Object ? facts : facts));
    }
    const unique = [...new Map(specs.map((s) => [stableStringify(s), s])).values()];
    if (unique.length === 1) return unique[0];
    if (unique.length === 0) throw new Error(`${at.where}: no schema type for ${members.map((m) => (m.flags ? checker.typeToString(m) : "boolean")).join(" | ")}`);
    return { oneOf: unique };
  }

  enumSpec(literals, at, aliasName, facts) {
    const values = [...new Set(literals.map((l) => l.value))];
    const numeric = values.every((v) => typeof v === "number");
    if (!values.every((v) => typeof v === "string")) {
      const named = this.numericEnumInNode(at);
      if (named) return named;
    }
    // Names or numbers with no constant to pair them: either is accepted.
    if (!numeric && !values.every((v) => typeof v === "string")) return { oneOf: [{ type: "string" }, { type: "integer" }] };
    const name = aliasName && !WRAPPERS.has(aliasName) ? pascal(aliasName) : `${pascal(baseName(at.owner))}${pascal(at.property)}`;
    const type = numeric ? (facts.integer || values.every(Number.isInteger) ? "integer" : "number") : "string";
    // Values that differ only in case (`"cdn" | "CDN"`, both accepted) would be one member name twice in every SDK: the
    // lowercase one is listed (a program may still pass the other as a plain string).
    const listed = numeric ? values : values.filter((v) => v === v.toLowerCase() || !values.includes(v.toLowerCase()));
    const spec = {
      type,
      enum: listed
        .sort((a, b) => (numeric ? a - b : String(a).localeCompare(String(b))))
        .map((value) => ({ name: enumMemberName(value), value })),
    };
    const seen = new Map();
    for (const member of spec.enum) {
      const n = (seen.get(member.name.toLowerCase()) ?? 0) + 1;
      seen.set(member.name.toLowerCase(), n);
      if (n > 1) member.name = `${member.name}${n}`;
    }
    return { $ref: `#/types/${this.define(name, spec)}` };
  }

  /** The token of an object type, defining it (and its properties' types) on first use. */
  objectType(type, at, facts) {
    const known = this.known.get(type);
    if (known) return known;
    const symbol = type.aliasSymbol ?? type.getSymbol();
    // A literal or a library alias (`Partial<Record<K, V>>`) is named after where it is; an interface or alias by its name.
    const declaredName = symbol && symbol.name !== "__type" && symbol.name !== "__object" && !isLibrarySymbol(symbol) ? symbol.name : undefined;
    const name = declaredName ? pascal(baseName(declaredName)) : `${pascal(baseName(at.owner))}${pascal(at.property)}`;
    const token = TYPE_PREFIX + name;
    // Registered before its properties, so that a type that refers to itself ends.
    this.known.set(type, token);
    const description = documentation(this.checker, symbol);
    const { properties, required } = this.objectSpec(type, name, facts, { defaults: false });
    const spec = { type: "object", properties };
    if (required.length > 0) spec.required = required;
    if (description && declaredName) spec.description = description;
    const defined = this.define(name, spec);
    this.known.set(type, defined);
    return defined;
  }

  /**
   * Adds a type under `name`, or finds it there: the same spec under the same name is one type; another spec under a
   * taken name (an outputs interface whose Args namesake differs) gets `<Name>Result`, then `<Name><n>`.
   */
  define(name, spec) {
    const text = stableStringify(spec);
    for (let n = 1; ; n++) {
      const token = TYPE_PREFIX + (n === 1 ? name : n === 2 ? `${name}Result` : `${name}${n}`);
      const existing = this.types.get(token);
      if (!existing) {
        this.types.set(token, spec);
        return token;
      }
      if (stableStringify(existing) === text) return token;
    }
  }
}

/** Whether a symbol is declared by the TypeScript or Node.js libraries (Date, Partial, Record …). */
function isLibrarySymbol(symbol) {
  const declarations = symbol?.declarations ?? [];
  return declarations.length > 0 && declarations.every((d) => /[\\/]node_modules[\\/](typescript[\\/]lib|@types)[\\/]/.test(d.getSourceFile().fileName));
}

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

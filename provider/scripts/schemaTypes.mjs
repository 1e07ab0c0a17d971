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
 *   its owner and property, written as a relaxed enum (schemaEnums.mjs: the enum or its plain values, so that Python's
 *   type checkers take `"DE"` and YAML takes a name); a union of names and numbers (`"CNAME" | 5`) is an enum of the
 *   names (one spelling each) that also takes strings and integers, so Go types it as a string;
 * - `T[]` is an array, `Record<string, T>` (an index signature) or `Partial<Record<Names, T>>` (keys such as
 *   `REQUEST_URI`, which Python's generator would mangle into `reques_t__uri`) a map, an interface or object literal an object type
 *   `bunnynet:index:<Name>` in `types` (interface names lose their Args/Outputs suffix; literals are named after owner
 *   and property);
 * - Pulumi assets and archives are `pulumi.json#/Asset` and `pulumi.json#/Archive`; `unknown` is `pulumi.json#/Any`;
 * - any other union (`"none" | "free" | { … }`, `number | string` without a zod fact) is a `oneOf` of its members'
 *   types, with enums widened to their element type (Go's generator types a union holding an enum as that enum's
 *   element type, pkg/codegen/go/gen.go argsTypeImpl, so the object member would be lost).
 */
import ts from "typescript";
import { literalEnumSpec, numericEnumSpec } from "./schemaEnums.mjs";
import { WRAPPERS, baseName, documentation, isIdName, pascal, sortKeys } from "./schemaFacts.mjs";

export { enumMemberName } from "./schemaEnums.mjs";
export { baseName, documentation, isIdName, pascal, sortKeys, storedOutputSpec, zodFacts } from "./schemaFacts.mjs";

export const PACKAGE = "bunnynet";
const TYPE_PREFIX = `${PACKAGE}:index:`;

const ASSETS = new Set(["Asset", "FileAsset", "StringAsset", "RemoteAsset"]);
const ARCHIVES = new Set(["Archive", "AssetArchive", "FileArchive", "RemoteArchive"]);

const defaultFits = (spec, value) =>
  (spec.type === "string" && typeof value === "string") ||
  (spec.type === "boolean" && typeof value === "boolean") ||
  (spec.type === "number" && typeof value === "number") ||
  (spec.type === "integer" && Number.isInteger(value));

/** A JSON value the schema can carry as a property's `default` (booleans, numbers, strings only). */
const isSchemaDefault = (v) => typeof v === "boolean" || typeof v === "string" || (typeof v === "number" && Number.isFinite(v));


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
    const numericEnum = numericEnumSpec(this, type, at);
    if (numericEnum) return numericEnum;
    if (type.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return { type: "boolean" };
    // A template literal (`${number}`) is text on the wire.
    if (type.flags & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral)) return { type: "string" };
    if (type.flags & ts.TypeFlags.Number) return { type: facts.integer ? "integer" : "number" };
    if (type.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) return { $ref: "pulumi.json#/Any" };
    if (type.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral)) return literalEnumSpec(this, [type], at, type.aliasSymbol?.name, facts);
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
      const keyed = this.keyedRecordSpec(type, at, facts);
      if (keyed) return keyed;
      return { $ref: `#/types/${this.objectType(type, at, facts)}` };
    }
    throw new Error(`${at.where}: no schema type for ${checker.typeToString(type)}`);
  }

  /**
   * `Partial<Record<Names, T>>` or `Record<Names, T>` (the library's aliases over a union of key names): a map of T,
   * as the keys are data, not property names each SDK would rename. Undefined for any other object type.
   */
  keyedRecordSpec(type, at, facts) {
    const alias = type.aliasSymbol;
    if (!alias || !["Partial", "Record"].includes(alias.name) || !isLibrarySymbol(alias)) return undefined;
    const specs = this.checker.getPropertiesOfType(type).map((p) => this.typeSpec(this.unwrap(this.checker.getTypeOfSymbol(p)).type, at, facts.element ?? {}));
    const distinct = new Set(specs.map(stableStringify));
    return specs.length > 0 && distinct.size === 1 ? { type: "object", additionalProperties: specs[0] } : undefined;
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
    if (literals.length === kept.length) return literalEnumSpec(this, literals, at, aliasName, facts);
    // An open enum ("a" | "b" | string) is a string.
    if (kept.some((m) => m.flags & ts.TypeFlags.String) && kept.every((m) => m.flags & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral))) return { type: "string" };
    // An id taken as a number or a string of digits: the runtime schema says which it becomes.
    // (`NumericId` is `number | \`${number}\``: a template literal of digits.)
    const primitives = kept.every((m) => m.flags & (ts.TypeFlags.String | ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral | ts.TypeFlags.StringLiteral | ts.TypeFlags.TemplateLiteral));
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
    // A member that is a relaxed enum gives its plain types (a schema's oneOf holds no oneOf, and an enum beside an
    // object would make Go drop the object).
    const flat = specs.flatMap((s) => (s.oneOf ? s.oneOf.filter((m) => !this.isEnumRef(m)) : [s]));
    const unique = [...new Map(flat.map((s) => [stableStringify(s), s])).values()];
    if (unique.length === 1) return unique[0];
    if (unique.length === 0) throw new Error(`${at.where}: no schema type for ${members.map((m) => (m.flags ? checker.typeToString(m) : "boolean")).join(" | ")}`);
    return { oneOf: unique };
  }

  /** Whether a spec is a reference to an enum type of this schema. */
  isEnumRef(spec) {
    return typeof spec.$ref === "string" && this.types.get(spec.$ref.replace("#/types/", ""))?.enum !== undefined;
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

import assert from "node:assert/strict";
import { join } from "node:path";
import ts from "typescript";
import { z } from "zod";
import { idFromString } from "bunnynet-pulumi/dist/schemas/common.js";
type SchemaTypesModule = typeof import("../../../provider/scripts/schemaTypes.mjs", { with: { "resolution-mode": "import" } });

/**
 * The schema generator's type mapping (provider/scripts/schemaTypes.mjs) on a small declaration file: what a resource's
 * Args interface becomes in the Pulumi package schema.
 */

// Beside the repository's sources, so that `@pulumi/pulumi` resolves from its node_modules.
const FIXTURE = join(process.cwd(), "tests", "unit", "scripts", "__schemaFixture.ts");
const SOURCE = `
import * as pulumi from "@pulumi/pulumi";

/** What a thing is named after. */
export const ThingColour = { Red: 0, Green: 1, Blue: 2 } as const;
type EnumInput<E extends Record<string, number>> = keyof E | E[keyof E];

/** A part of a thing. */
export interface ThingPartArgs {
  /** The part's label. */
  label: pulumi.Input<string>;
  weight?: pulumi.Input<number>;
}

export interface ThingArgs {
  /** The thing's name. */
  name: pulumi.Input<string>;
  /** How it is made. */
  kind?: pulumi.Input<"alpha" | "beta">;
  colour?: pulumi.Input<EnumInput<typeof ThingColour>>;
  part?: pulumi.Input<ThingPartArgs>;
  /** How many. */
  count?: pulumi.Input<number>;
  ratio?: pulumi.Input<number>;
  labels?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  items: pulumi.Input<pulumi.Input<string>[]>;
  file?: pulumi.Input<pulumi.asset.Asset>;
  bundle?: pulumi.Input<pulumi.asset.Archive>;
  /** Keyed by names that are data, not properties. */
  variables?: pulumi.Input<Partial<Record<"REQUEST_URI" | "REMOTE_ADDR", pulumi.Input<string>>>>;
  recordType?: pulumi.Input<"CNAME" | "cname" | "Flatten" | "flatten" | "FLATTEN" | 5 | 6>;
  parentId: pulumi.Input<number | string>;
  enabled?: pulumi.Input<boolean>;
}
`;

const facts = z.object({
  name: z.string(),
  kind: z.enum(["alpha", "beta"]).default("alpha"),
  count: z.number().int().min(0).default(3),
  ratio: z.number().default(0.5),
  enabled: z.boolean().default(true),
  parentId: z.union([z.number().int(), z.string()]),
});

describe("schema type mapping (provider/scripts/schemaTypes.mjs)", function () {
  this.timeout(60_000);
  let mod: SchemaTypesModule;
  let types: InstanceType<SchemaTypesModule["SchemaTypes"]>;
  let spec: ReturnType<InstanceType<SchemaTypesModule["SchemaTypes"]>["objectSpec"]>;

  before(async () => {
    mod = await import("../../../provider/scripts/schemaTypes.mjs");
    const options: ts.CompilerOptions = { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, skipLibCheck: true, noEmit: true };
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile } = host;
    host.getSourceFile = (f, language, ...rest) => (f === FIXTURE ? ts.createSourceFile(f, SOURCE, language, true) : getSourceFile.call(host, f, language, ...rest));
    host.fileExists = (f) => f === FIXTURE || fileExists.call(host, f);
    host.readFile = (f) => (f === FIXTURE ? SOURCE : readFile.call(host, f));
    const program = ts.createProgram([FIXTURE], options, host);
    const checker = program.getTypeChecker();
    const args = program.getSourceFile(FIXTURE)!.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "ThingArgs")!;
    types = new mod.SchemaTypes(checker);
    spec = types.objectSpec(checker.getTypeAtLocation(args.name), "ThingArgs", mod.zodFacts(facts), { secret: new Set(["name"]), replaceOnChanges: new Set(["parentId"]) });
  });

  const typeOf = (ref: unknown) => types.types.get(String(ref).replace("#/types/", ""));

  it("required inputs are the non-optional properties, sorted", () => {
    assert.deepEqual(spec.required, ["items", "name", "parentId"]);
  });

  it("carries descriptions, and marks secrets and replaceOnChanges", () => {
    assert.deepEqual(spec.properties.name, { type: "string", description: "The thing's name.", secret: true });
    assert.equal(spec.properties.parentId.replaceOnChanges, true);
    assert.equal((spec.properties.name as { replaceOnChanges?: boolean }).replaceOnChanges, undefined);
    assert.equal(spec.properties.count.description, "How many.");
  });

  /** The enum type of a relaxed enum (`oneOf: [{ $ref: enum }, { type: … }]`), with the plain types it also takes. */
  const relaxed = (p: { oneOf?: { $ref?: string; type?: string }[] }) => ({ ref: p.oneOf?.[0]?.$ref, plain: p.oneOf?.slice(1).map((m) => m.type) });

  it("a literal union becomes a string enum type named after its owner and property, that also takes a string", () => {
    // Python's generator types an enum alone as its class, which mypy and pyright refuse a plain "alpha" for.
    assert.deepEqual(relaxed(spec.properties.kind), { ref: "#/types/bunnynet:index:ThingKind", plain: ["string"] });
    assert.deepEqual(typeOf(relaxed(spec.properties.kind).ref), {
      type: "string",
      enum: [
        { name: "Alpha", value: "alpha" },
        { name: "Beta", value: "beta" },
      ],
    });
    // A default on an enum would not compile in Go: the provider applies it.
    assert.equal(spec.properties.kind.default, undefined);
  });

  it("an API enum by name or number becomes an integer enum named after its constant, that also takes an integer or a name", () => {
    // YAML refuses a name for an integer enum, and warned an internal error for a number.
    assert.deepEqual(relaxed(spec.properties.colour), { ref: "#/types/bunnynet:index:ThingColour", plain: ["integer", "string"] });
    assert.deepEqual(typeOf(relaxed(spec.properties.colour).ref), {
      type: "integer",
      description: "What a thing is named after.",
      enum: [
        { name: "Red", value: 0 },
        { name: "Green", value: 1 },
        { name: "Blue", value: 2 },
      ],
    });
  });

  it("names or numbers with no constant become an enum of the names, one spelling each, that also takes a string or an integer", () => {
    // Go's generator types a union holding an enum as a string; a union of string and integer alone is pulumi.Input.
    assert.deepEqual(relaxed(spec.properties.recordType), { ref: "#/types/bunnynet:index:ThingRecordType", plain: ["string", "integer"] });
    assert.deepEqual(typeOf(relaxed(spec.properties.recordType).ref), {
      type: "string",
      enum: [
        { name: "CNAME", value: "CNAME" },
        { name: "Flatten", value: "Flatten" },
      ],
    });
  });

  it("a record keyed by a union of names is a map, not an object whose properties the SDKs would rename", () => {
    assert.deepEqual(spec.properties.variables, { type: "object", additionalProperties: { type: "string" }, description: "Keyed by names that are data, not properties." });
  });

  it("a nested interface becomes an object type, with its own descriptions and required properties", () => {
    assert.equal(spec.properties.part.$ref, "#/types/bunnynet:index:ThingPart");
    assert.deepEqual(typeOf(spec.properties.part.$ref), {
      type: "object",
      description: "A part of a thing.",
      properties: { label: { type: "string", description: "The part's label." }, weight: { type: "number" } },
      required: ["label"],
    });
  });

  it("numbers are integers where the zod schema says int or the name is an id's; defaults are carried", () => {
    assert.deepEqual(spec.properties.count, { type: "integer", description: "How many.", default: 3 });
    assert.deepEqual(spec.properties.ratio, { type: "number", default: 0.5 });
    assert.deepEqual(spec.properties.enabled, { type: "boolean", default: true });
    assert.equal(spec.properties.parentId.type, "integer");
  });

  it("arrays, maps, assets and archives", () => {
    assert.deepEqual(spec.properties.items, { type: "array", items: { type: "string" } });
    assert.deepEqual(spec.properties.labels, { type: "object", additionalProperties: { type: "string" } });
    assert.deepEqual(spec.properties.file, { $ref: "pulumi.json#/Asset" });
    assert.deepEqual(spec.properties.bundle, { $ref: "pulumi.json#/Archive" });
  });

  it("reads integers and defaults through zod's wrappers, unions and pipes", () => {
    const read = mod.zodFacts(
      z.object({
        id: idFromString,
        port: z.number().int().default(80).optional(),
        sizes: z.array(z.number().int()),
        ratio: z.number().nullable(),
        nested: z.object({ count: z.number().int().default(1) }).optional(),
      }),
    );
    assert.equal(read.properties?.id.integer, true);
    assert.deepEqual(read.properties?.port, { default: 80, integer: true });
    assert.equal(read.properties?.sizes.element?.integer, true);
    assert.equal(read.properties?.ratio.integer, false);
    assert.deepEqual(read.properties?.nested.properties?.count, { default: 1, integer: true });
  });

  it("a stored output of a union holding an array, a map or an object type is read back as Any; other unions stay", () => {
    const objectType = new Map([["bunnynet:index:Part", { type: "object" }], ["bunnynet:index:Colour", { type: "integer" }]]);
    const triggers = { description: "d", secret: true, oneOf: [{ type: "array", items: { $ref: "pulumi.json#/Any" } }, { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } }] };
    assert.deepEqual(mod.storedOutputSpec(triggers, objectType), { description: "d", secret: true, $ref: "pulumi.json#/Any" });
    assert.deepEqual(mod.storedOutputSpec({ oneOf: [{ type: "string" }, { $ref: "#/types/bunnynet:index:Part" }] }, objectType), { $ref: "pulumi.json#/Any" });
    const scalars = { oneOf: [{ type: "string" }, { $ref: "pulumi.json#/Asset" }, { $ref: "#/types/bunnynet:index:Colour" }] };
    assert.deepEqual(mod.storedOutputSpec(scalars, objectType), scalars);
  });

  it("enum member names are identifiers in every language", () => {
    assert.equal(mod.enumMemberName("free"), "Free");
    assert.equal(mod.enumMemberName("MatchAny"), "MatchAny");
    assert.equal(mod.enumMemberName("4.0"), "Value4_0");
    assert.equal(mod.enumMemberName("image/webp"), "ImageWebp");
  });
});

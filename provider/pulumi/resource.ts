import { z } from "zod";
import type * as pulumi from "@pulumi/pulumi";
import type { BunnyClient } from "../client";
import { AlreadyExistsError, NetworkError, ServerError, UnauthorizedError, isNotFound } from "../http/errors";
import { ProviderSession } from "./session";
import type { ResourceImplementation } from "./types";

/** The engine's placeholder for a value not known yet (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** How an asset is tagged on the wire (the SDK's `specialSigKey` and `specialAssetSig`; the provider process has no SDK classes). */
const ASSET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const ASSET_SIG = "c44067f5952c0a294b673a41bacd8c17";
/** The property of every dynamic resource that holds the serialized provider. */
export const PROVIDER_KEY = "__provider";

/** The input every resource has: take over an existing object with the same identity instead of failing. */
export const adoptionInputs = {
  adoptExisting: z.boolean().default(false),
};

// The framework's types that resources' public declarations use live in a zod-free module (see types.ts).
export type { AdoptableArgs, ResourceImplementation } from "./types";

type Plain = Record<string, unknown>;
/** Resources with `find` spread `adoptionInputs` into their shape; action-like resources have nothing to adopt. */
type InputShape = z.ZodRawShape;

/** A refused input, naming the property (as `check` reports it). */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** What the provider methods can use. */
export interface ResourceContext {
  client: BunnyClient;
}

/** One API object seen through a resource: its id, the inputs that describe it as it is, and computed outputs. */
export interface Observed<I, O> {
  id: string;
  /** The inputs as the object really is (refresh stores them; adoption compares them with the requested ones). */
  inputs: I;
  /** Computed outputs beyond the inputs (stored outputs are `{...inputs, ...outputs}`). */
  outputs: O;
}

/**
 * A resource type written against the API client. The framework supplies check (zod, naming the property,
 * tolerant of unknowns), diff (in place vs replace, delete-before-replace when identity would collide),
 * adoption and safe create after an ambiguous failure, "already gone" on read and delete.
 *
 * The input schema must be idempotent (parsing its own output gives the same value): create and update
 * parse the inputs that check already normalised.
 */
export interface ResourceDefinition<Shape extends InputShape, Obj, O extends Plain> {
  /** Type name in the `bunnynet` module: the token is `pulumi-nodejs:dynamic/bunnynet:<type>`. */
  type: string;
  inputs: z.ZodObject<Shape>;
  /** Inputs whose change replaces the object. Every other input changes in place, so `update` is then required. */
  replaceOnChanges: readonly (keyof Shape & string)[];
  /** Inputs that identify the object within its parent: no two objects share them (used for adoption and delete-before-replace). */
  identity: readonly (keyof Shape & string)[];
  /**
   * Optional inputs the provider resolves when the program leaves them unset (e.g. a zone id found from another
   * input): the stored output holds the resolved value, and an unset new value is no change.
   */
  resolvedWhenUnset?: readonly (keyof Shape & string)[];
  /**
   * Inputs an existing object need not match to be adopted (or kept after a create whose answer was lost):
   * `update` then sets them. For values the API never returns (a secret's value) and settings the create
   * itself would apply after making the object (a hostname's certificate and force-SSL).
   */
  setOnAdoption?: readonly (keyof Shape & string)[];
  /**
   * Inputs that may hold a secret (a value, a key, a signed URL). A check failure on one names it in the reason
   * only: the engine prints the value of a failure's property, secret or not (see `engineSafeFailures`).
   */
  secretInputs?: readonly (keyof Shape & string)[];
  describe(obj: Obj, requested: z.output<z.ZodObject<Shape>>): Observed<z.output<z.ZodObject<Shape>>, O>;
  /**
   * The existing object with the identity of `inputs`, if any. Omitted when there is nothing to adopt or
   * look up (an action, a setting of another object): create then always runs and must be safe to repeat.
   */
  find?(ctx: ResourceContext, inputs: z.output<z.ZodObject<Shape>>): Promise<Obj | undefined>;
  /**
   * The API itself refuses a second object with this identity (AlreadyExistsError). Then create is sent
   * first and `find` runs only when it fails: the refusal is the look-up, and a create costs no extra read.
   */
  refusesDuplicates?: boolean;
  /**
   * Rules across properties, and inputs derived from others, applied by check once the schema accepted the
   * known inputs (no API call; reading a local file is fine). `unknown` names the inputs not known yet, wholly
   * or in part (preview). Returns the completed inputs (still valid for the schema), or failures naming properties.
   */
  complete?(inputs: Plain, unknown: ReadonlySet<string>): Promise<{ inputs: Plain; failures: CheckFailure[] }>;
  create(ctx: ResourceContext, inputs: z.output<z.ZodObject<Shape>>): Promise<Obj>;
  /** The object, or undefined when it is gone (a NotFoundError also counts as gone). */
  get(ctx: ResourceContext, id: string, state: State<Shape, O>): Promise<Obj | undefined>;
  update?(ctx: ResourceContext, id: string, state: State<Shape, O>, inputs: z.output<z.ZodObject<Shape>>): Promise<Obj>;
  /** Deletes the object; a NotFoundError (already gone) counts as success. */
  delete(ctx: ResourceContext, id: string, state: State<Shape, O>): Promise<void>;
}

/** The stored outputs of a resource, as the engine hands them back. */
export type State<Shape extends z.ZodRawShape, O> = z.output<z.ZodObject<Shape>> & O;

const definitions = new Map<string, () => ResourceImplementation>();

/** The implementation of a type registered by `defineResource` (one instance per process). */
export function implementationOf(type: string): ResourceImplementation | undefined {
  return definitions.get(type)?.();
}

/** Every registered type name (all of the package's resources once provider/index has loaded). */
export function registeredTypes(): string[] {
  return [...definitions.keys()];
}

/** Registers a resource type and returns its implementation factory (the instance is created on first use). */
export function defineResource<Shape extends InputShape, Obj, O extends Plain>(def: ResourceDefinition<Shape, Obj, O>): () => ResourceImplementation {
  const inPlace = Object.keys(def.inputs.shape).filter((k) => k !== "adoptExisting" && !def.replaceOnChanges.includes(k));
  if (inPlace.length > 0 && !def.update) {
    throw new Error(`${def.type}: ${inPlace.join(", ")} change in place, so the definition needs update (or list them in replaceOnChanges)`);
  }
  if (definitions.has(def.type)) throw new Error(`resource type ${def.type} is defined twice`);
  let instance: ResourceImplementation | undefined;
  const get = () => (instance ??= implement(def));
  definitions.set(def.type, get);
  return get;
}

function implement<Shape extends InputShape, Obj, O extends Plain>(def: ResourceDefinition<Shape, Obj, O>): ResourceImplementation {
  type I = z.output<z.ZodObject<Shape>>;
  const session = new ProviderSession();
  const ctx: ResourceContext = {
    get client() {
      return session.client();
    },
  };
  const inputKeys = Object.keys(def.inputs.shape);
  const parse = (props: Plain): I => def.inputs.parse(withoutProvider(props));
  const stored = (o: Observed<I, O>): Plain => plain({ ...o.inputs, ...o.outputs });
  const asState = (props: Plain) => withoutProvider(props) as State<Shape, O>;

  return {
    async configure(req) {
      session.configure(req.config);
    },

    async check(_olds, news) {
      const checked = checkInputs(def.inputs, news);
      if (!def.complete || (checked.failures ?? []).length > 0) return engineSafeFailures(def, news, checked);
      const inputs = checked.inputs as Plain;
      const completed = await def.complete(inputs, new Set(Object.keys(inputs).filter((k) => containsUnknown(inputs[k]))));
      return engineSafeFailures(def, news, { inputs: plain(completed.inputs), failures: completed.failures });
    },

    async diff(_id, olds, news) {
      const same = (k: string) =>
        sameValue(olds[k], news[k]) ||
        (def.resolvedWhenUnset?.includes(k) === true && (news[k] === undefined || news[k] === null)) ||
        ((olds[k] === undefined || isElidedAsset(olds[k])) && isAsset(news[k]));
      const changed = inputKeys.filter((k) => k !== "adoptExisting" && !same(k));
      const replaces = changed.filter((k) => def.replaceOnChanges.includes(k));
      // Only when the replacement would (or may: an unset resolved input) share the old object's identity must the old one go first.
      const collides = replaces.length > 0 && def.identity.every((k) => news[k] !== UNKNOWN && same(k));
      return { changes: changed.length > 0, replaces, deleteBeforeReplace: collides };
    },

    async create(news) {
      const inputs = parse(news);
      const observed = await createOrAdopt(def, ctx, inputs);
      return { id: observed.id, outs: stored(observed) };
    },

    async read(id, props = {}) {
      const state = asState(props);
      const obj = await def.get(ctx, id, state).catch((e: unknown) => {
        if (isNotFound(e)) return undefined;
        throw withSavedConfigHint(e);
      });
      if (obj === undefined) return { id: undefined, props: {} };
      const requested = pickInputs(state, inputKeys) as I;
      const observed = def.describe(obj, requested);
      return { id: observed.id, props: withoutElidedAssets(stored(observed)), inputs: withoutElidedAssets(plain(observed.inputs as Plain)) };
    },

    async update(id, olds, news) {
      if (!def.update) throw new Error(`${def.type} cannot change in place`);
      const inputs = parse(news);
      const obj = await def.update(ctx, id, asState(olds), inputs);
      return { outs: stored(def.describe(obj, inputs)) };
    },

    async delete(id, props) {
      try {
        await def.delete(ctx, id, asState(props));
      } catch (e) {
        if (!isNotFound(e)) throw withSavedConfigHint(e);
      }
    },
  };
}

/**
 * Validates inputs without any API call. Values not known yet (preview), at any depth, are not judged and stay
 * unknown; everything else is normalised (defaults, conversions) exactly as in a deployment, so a preview of an
 * unchanged program shows no change. Failures name the property path.
 */
export function checkInputs(schema: z.ZodObject<z.ZodRawShape>, news: Plain): pulumi.dynamic.CheckResult {
  const props = withoutProvider(news);
  const unknowns = unknownPaths(props);
  // Each unknown gets a stand-in its own schema accepts, so the rest is parsed and normalised; the unknown goes back
  // afterwards. Where no stand-in is found (or the property itself is unknown), the property is left out of the
  // schema and passes through as it came.
  const standIns: Path[] = [];
  const passThrough = new Set<string>();
  const probe = structuredClone(props);
  for (const path of unknowns) {
    const top = String(path[0]);
    const leaf = path.length > 1 && top in schema.shape ? schemaAt(schema, path) : undefined;
    const standIn = leaf ? standInFor(leaf) : NO_STAND_IN;
    if (standIn === NO_STAND_IN) passThrough.add(top);
    else {
      setAt(probe, path, standIn);
      standIns.push(path);
    }
  }
  const mask = Object.fromEntries([...passThrough].filter((k) => k in schema.shape).map((k) => [k, true] as const));
  for (const k of passThrough) delete probe[k];
  // Building a narrowed schema costs far more than parsing: only do it at preview, when some value is unknown.
  const result = (Object.keys(mask).length > 0 ? schema.omit(mask) : schema).safeParse(probe);
  if (result.success) {
    const inputs = result.data as Plain;
    for (const path of standIns) if (!passThrough.has(String(path[0]))) setAt(inputs, path, UNKNOWN);
    for (const k of passThrough) inputs[k] = props[k];
    return { inputs: plain(inputs), failures: [] };
  }
  const failures = result.error.issues
    .flatMap((issue) => {
      const base = issue.path.map(String);
      // The expected names are listed for top-level properties only (the nested object's schema is not at hand here).
      if (issue.code === "unrecognized_keys") return issue.keys.map((k) => ({ property: [...base, k].join("."), reason: base.length === 0 ? `unknown property (${knownProperties(schema)})` : "unknown property" }));
      return [{ property: base.join(".") || "(inputs)", reason: issue.message }];
    })
    .filter((f) => !pathHasUnknown(props, f.property));
  return { inputs: props, failures };
}

function knownProperties(schema: z.ZodObject<z.ZodRawShape>): string {
  return `expected one of ${Object.keys(schema.shape).join(", ")}`;
}

function pathHasUnknown(props: Plain, dotted: string): boolean {
  let value: unknown = props;
  for (const key of dotted.split(".")) {
    if (value === UNKNOWN) return true;
    if (typeof value !== "object" || value === null) return false;
    value = (value as Plain)[key];
  }
  return value === UNKNOWN;
}

/**
 * The engine prints the program's value of a failure's top-level property beside the reason, even when the value
 * is a secret (pkg/resource/deploy/step_generator.go, issueCheckFailures: `inputs[failure.Property]`, with the
 * inputs from before Check). A failure on an input that may hold a secret, or on a key the schema does not know
 * (a misspelt key may hold anything), when the program gave it a value, is therefore reported without a property,
 * naming it in the reason: the engine then prints only the reason. (A nested path is no key of the inputs: nothing
 * is printed for it.)
 */
function engineSafeFailures<Shape extends InputShape, Obj, O extends Plain>(
  def: ResourceDefinition<Shape, Obj, O>,
  news: Plain,
  checked: pulumi.dynamic.CheckResult,
): pulumi.dynamic.CheckResult {
  const mayHoldSecret = (property: string) =>
    news[property] !== undefined && news[property] !== null && (def.secretInputs?.includes(property) === true || !(property in def.inputs.shape));
  const failures = (checked.failures ?? []).map((f) => (!f.property.includes(".") && mayHoldSecret(f.property) ? { property: "", reason: `${f.property}: ${f.reason}` } : f));
  return { inputs: checked.inputs, failures };
}

/**
 * Refresh and destroy run with the provider config saved in state at the last `pulumi up`
 * (pkg/resource/deploy/providers/registry.go loads providers from the old state's inputs), so a refused key there
 * is usually a key rotated since: say what to do.
 */
function withSavedConfigHint(e: unknown): unknown {
  if (!(e instanceof UnauthorizedError)) return e;
  return new Error(
    `${e.message}. If bunnynet:apiKey was rotated since the last \`pulumi up\`: refresh and destroy use the key saved then; ` +
      `run \`pulumi up\` first (or \`pulumi refresh --run-program\` / \`pulumi destroy --run-program\`) so the new key is used.`,
    { cause: e },
  );
}

type Path = (string | number)[];

/** Where unknown values are, at any depth. */
function unknownPaths(value: unknown, path: Path = []): Path[] {
  if (value === UNKNOWN) return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownPaths(v, [...path, i]));
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => unknownPaths(v, [...path, k]));
  return [];
}

function containsUnknown(value: unknown): boolean {
  return unknownPaths(value).length > 0;
}

function setAt(target: Plain, path: Path, value: unknown): void {
  let node = target as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== "object" || node[key] === null) return;
    node = node[key] as Record<string | number, unknown>;
  }
  node[path[path.length - 1]] = value;
}

/* zod's definitions, as far as walking a schema along a property path needs them. */
interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

/** The schema behind wrappers (optional, default, a transform's input...). */
function unwrapped(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    if (def.innerType) s = def.innerType;
    else if (def.type === "pipe" && def.in) s = def.in;
    else return s;
  }
}

/** The schema of the value at `path`, if the schema's structure reaches it. */
function schemaAt(schema: z.ZodType, path: Path): z.ZodType | undefined {
  if (path.length === 0) return schema;
  const [key, ...rest] = path;
  const def = defOf(unwrapped(schema));
  if (def.type === "object" && def.shape && typeof key === "string" && key in def.shape) return schemaAt(def.shape[key], rest);
  if (def.type === "array" && def.element && typeof key === "number") return schemaAt(def.element, rest);
  if (def.type === "record" && def.valueType) return schemaAt(def.valueType, rest);
  if (def.type === "union") for (const option of def.options ?? []) {
    const found = schemaAt(option, path);
    if (found) return found;
  }
  return undefined;
}

const NO_STAND_IN = Symbol("no stand-in");
const GENERIC_STAND_INS: unknown[] = [1, 0, "a", "a.example", "https://a.example/a.png", true, false, {}, []];

/** A value the schema accepts (an enum's or literal's own value first). */
function standInFor(schema: z.ZodType): unknown {
  const def = defOf(unwrapped(schema));
  const own = def.entries ? Object.values(def.entries) : (def.values ?? []);
  return [...own, ...GENERIC_STAND_INS].find((candidate) => schema.safeParse(candidate).success) ?? NO_STAND_IN;
}

/** Whether a failure left the API's state unknown: the server may have acted (not a refusal). */
export function isAmbiguous(e: unknown): boolean {
  return e instanceof ServerError || (e instanceof NetworkError && !e.notSent);
}

const CREATE_ATTEMPTS = 3;

/**
 * Creates the object, or adopts an existing one with the same identity when allowed. The look-up comes first,
 * unless the API refuses duplicates itself (`refusesDuplicates`): then only a refused create looks.
 * After an ambiguous failure (5xx, timeout) the object is looked up before anything is tried again,
 * so a create whose answer was lost is not repeated into a duplicate (and when the look-up fails too, nothing is).
 */
async function createOrAdopt<Shape extends InputShape, Obj, O extends Plain>(
  def: ResourceDefinition<Shape, Obj, O>,
  ctx: ResourceContext,
  inputs: z.output<z.ZodObject<Shape>>,
): Promise<Observed<z.output<z.ZodObject<Shape>>, O>> {
  if (!def.find) return def.describe(await def.create(ctx, inputs), inputs);
  if (!def.refusesDuplicates) {
    const existing = await def.find(ctx, inputs);
    if (existing !== undefined) return settle(def, ctx, adopt(def, existing, inputs, wantsAdoption(inputs)), inputs);
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return def.describe(await def.create(ctx, inputs), inputs);
    } catch (e) {
      const duplicate = e instanceof AlreadyExistsError;
      if (!duplicate && !isAmbiguous(e)) throw e;
      const found = await def.find(ctx, inputs).catch((lookup: unknown) => {
        // Whether the create happened is unknown: sending it again could make a duplicate.
        throw new Error(
          `${(e as Error).message}; the look-up of whether ${def.type} was created failed too (${(lookup as Error).message}), so the create was not sent again. ` +
            `Run again: if it was created, set adoptExisting: true to keep it.`,
          { cause: e },
        );
      });
      // Someone else created it meanwhile: same rule as before. Our own lost answer: ours to keep.
      if (found !== undefined) return settle(def, ctx, adopt(def, found, inputs, duplicate ? wantsAdoption(inputs) : true), inputs);
      if (duplicate || attempt >= CREATE_ATTEMPTS) throw e;
    }
  }
}

function wantsAdoption(inputs: object): boolean {
  return (inputs as Plain).adoptExisting === true;
}

function adopt<Shape extends InputShape, Obj, O extends Plain>(
  def: ResourceDefinition<Shape, Obj, O>,
  obj: Obj,
  inputs: z.output<z.ZodObject<Shape>>,
  allowed: boolean,
): Observed<z.output<z.ZodObject<Shape>>, O> {
  const observed = def.describe(obj, inputs);
  // Identity as stored: a resolved input (resolvedWhenUnset) shows its value, not "undefined".
  const identityValues: Plain = { ...(inputs as Plain), ...(observed.outputs as Plain) };
  const who = `${def.type} ${def.identity.map((k) => `${k}=${JSON.stringify(identityValues[k])}`).join(", ")} already exists (id ${observed.id})`;
  if (!allowed) {
    throw new Error(`${who}. To manage it with this resource, set adoptExisting: true (it is adopted only if it matches the inputs exactly).`);
  }
  // Only property names: values (e.g. a default value) may be secret.
  const differing = differingInputs(def, observed, inputs).filter((k) => !def.setOnAdoption?.includes(k));
  if (differing.length > 0) {
    throw new Error(`${who} but differs from the inputs in: ${differing.join(", ")}. Change the inputs to match it to adopt it, or remove it first.`);
  }
  return observed;
}

function differingInputs<Shape extends InputShape, Obj, O extends Plain>(
  def: ResourceDefinition<Shape, Obj, O>,
  observed: Observed<z.output<z.ZodObject<Shape>>, O>,
  inputs: z.output<z.ZodObject<Shape>>,
): string[] {
  return Object.keys(def.inputs.shape).filter((k) => k !== "adoptExisting" && !sameValue((observed.inputs as Plain)[k], (inputs as Plain)[k]));
}

/** An adopted object whose `setOnAdoption` inputs differ from the requested ones gets them set with `update`. */
async function settle<Shape extends InputShape, Obj, O extends Plain>(
  def: ResourceDefinition<Shape, Obj, O>,
  ctx: ResourceContext,
  observed: Observed<z.output<z.ZodObject<Shape>>, O>,
  inputs: z.output<z.ZodObject<Shape>>,
): Promise<Observed<z.output<z.ZodObject<Shape>>, O>> {
  const unsettled = differingInputs(def, observed, inputs).filter((k) => def.setOnAdoption?.includes(k));
  if (unsettled.length === 0 || !def.update) return observed;
  const state = { ...observed.inputs, ...observed.outputs } as State<Shape, O>;
  return def.describe(await def.update(ctx, observed.id, state, inputs), inputs);
}

/**
 * The engine sends old assets with their contents elided, `{sig, hash}` (pkg/resource/plugin/provider_plugin.go,
 * ElideAssetContents in Diff, Update, Read and Delete), so an old asset cannot be compared with a new one here, and
 * refresh cannot give it back (the program cannot read an asset without contents: it is left out). A resource that
 * takes an asset records its content in another input (VideoThumbnail's fingerprint, computed by check), and that
 * input shows a change of content.
 */
function withoutElidedAssets(props: Plain): Plain {
  return Object.fromEntries(Object.entries(props).filter(([, v]) => !isElidedAsset(v)));
}

function isElidedAsset(value: unknown): boolean {
  return isAsset(value) && !["path", "text", "uri"].some((k) => k in (value as Plain));
}

function isAsset(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as Plain)[ASSET_SIG_KEY] === ASSET_SIG;
}

function withoutProvider(props: Plain): Plain {
  const rest = { ...props };
  delete rest[PROVIDER_KEY];
  return rest;
}

function pickInputs(state: Plain, keys: string[]): Plain {
  return Object.fromEntries(keys.filter((k) => k in state).map((k) => [k, state[k]]));
}

/** Drops undefined values: the engine's wire format (protobuf Struct) cannot carry them. */
function plain(value: Plain): Plain {
  return JSON.parse(JSON.stringify(value)) as Plain;
}

/** Value equality for properties: `undefined` and `null` mean the same (unset). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null) return b === undefined || b === null;
  if (b === undefined || b === null) return false;
  if (typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as Plain).filter((k) => (a as Plain)[k] !== undefined && (a as Plain)[k] !== null);
  const kb = Object.keys(b as Plain).filter((k) => (b as Plain)[k] !== undefined && (b as Plain)[k] !== null);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameValue((a as Plain)[k], (b as Plain)[k]));
}

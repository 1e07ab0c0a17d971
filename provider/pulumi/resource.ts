import { z } from "zod";
import type * as pulumi from "@pulumi/pulumi";
import type { BunnyClient } from "../client";
import { AlreadyExistsError, NetworkError, ServerError, isNotFound } from "../http/errors";
import { ProviderSession } from "./session";
import type { ResourceImplementation } from "./types";

/** The engine's placeholder for a value not known yet (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
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
  describe(obj: Obj, requested: z.output<z.ZodObject<Shape>>): Observed<z.output<z.ZodObject<Shape>>, O>;
  /**
   * The existing object with the identity of `inputs`, if any. Omitted when there is nothing to adopt or
   * look up (an action, a setting of another object): create then always runs and must be safe to repeat.
   */
  find?(ctx: ResourceContext, inputs: z.output<z.ZodObject<Shape>>): Promise<Obj | undefined>;
  /**
   * Rules across properties, and inputs derived from others, applied by check once the schema accepted the
   * known inputs (no API call; reading a local file is fine). `unknown` names the inputs not known yet
   * (preview). Returns the completed inputs (still valid for the schema), or failures naming properties.
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
      if (!def.complete || (checked.failures ?? []).length > 0) return checked;
      const inputs = checked.inputs as Plain;
      const completed = await def.complete(inputs, new Set(Object.keys(inputs).filter((k) => inputs[k] === UNKNOWN)));
      return { inputs: plain(completed.inputs), failures: completed.failures };
    },

    async diff(_id, olds, news) {
      const same = (k: string) => sameValue(olds[k], news[k]) || (def.resolvedWhenUnset?.includes(k) === true && (news[k] === undefined || news[k] === null));
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
        throw e;
      });
      if (obj === undefined) return { id: undefined, props: {} };
      const requested = pickInputs(state, inputKeys) as I;
      const observed = def.describe(obj, requested);
      return { id: observed.id, props: stored(observed), inputs: plain(observed.inputs as Plain) };
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
        if (!isNotFound(e)) throw e;
      }
    },
  };
}

/**
 * Validates inputs without any API call. Properties whose value is not known yet (preview) are not judged
 * and pass through; everything else is normalised (defaults, conversions) and failures name the property.
 */
export function checkInputs(schema: z.ZodObject<z.ZodRawShape>, news: Plain): pulumi.dynamic.CheckResult {
  const props = withoutProvider(news);
  const unknownKeys = Object.keys(props).filter((k) => props[k] === UNKNOWN);
  const known = Object.fromEntries(Object.entries(props).filter(([k]) => props[k] !== UNKNOWN));
  const mask = Object.fromEntries(unknownKeys.filter((k) => k in schema.shape).map((k) => [k, true] as const));
  // Building a narrowed schema costs far more than parsing: only do it at preview, when some value is unknown.
  const result = (Object.keys(mask).length > 0 ? schema.omit(mask) : schema).safeParse(known);
  if (result.success) {
    return { inputs: plain({ ...result.data, ...Object.fromEntries(unknownKeys.map((k) => [k, UNKNOWN])) }), failures: [] };
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

/** Whether a failure left the API's state unknown: the server may have acted (not a refusal). */
function isAmbiguous(e: unknown): boolean {
  return e instanceof ServerError || (e instanceof NetworkError && !e.notSent);
}

const CREATE_ATTEMPTS = 3;

/**
 * Creates the object, or adopts an existing one with the same identity when allowed.
 * After an ambiguous failure (5xx, timeout) the object is looked up before anything is tried again,
 * so a create whose answer was lost is not repeated into a duplicate (and when the look-up fails too, nothing is).
 */
async function createOrAdopt<Shape extends InputShape, Obj, O extends Plain>(
  def: ResourceDefinition<Shape, Obj, O>,
  ctx: ResourceContext,
  inputs: z.output<z.ZodObject<Shape>>,
): Promise<Observed<z.output<z.ZodObject<Shape>>, O>> {
  if (!def.find) return def.describe(await def.create(ctx, inputs), inputs);
  const existing = await def.find(ctx, inputs);
  if (existing !== undefined) return adopt(def, existing, inputs, wantsAdoption(inputs));
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
      if (found !== undefined) return adopt(def, found, inputs, duplicate ? wantsAdoption(inputs) : true);
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
  const differing = Object.keys(def.inputs.shape).filter((k) => k !== "adoptExisting" && !sameValue((observed.inputs as Plain)[k], (inputs as Plain)[k]));
  if (differing.length > 0) {
    throw new Error(`${who} but differs from the inputs in: ${differing.join(", ")}. Change the inputs to match it to adopt it, or remove it first.`);
  }
  return observed;
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

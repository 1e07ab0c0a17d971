import { z } from "zod";
import type { BunnyClient } from "../client";
import type { Plain } from "./wire";

/**
 * What a resource type is, as its module writes it: `ResourceDefinition`, the one object each file of
 * provider/resources/ hands to `defineResource`. The framework does the rest (check, diff, adoption, "already gone").
 */

/** The input every resource that can be adopted has: take over an existing object with the same identity instead of failing. */
export const adoptionInputs = {
  adoptExisting: z.boolean().default(false),
};

/** A refused input, naming the property (as `check` reports it). */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** What the provider methods can use. */
export interface ResourceContext {
  client: BunnyClient;
  /** The URN of the resource a create or update is for (ownership.ts): its mark proves an object found is its own. */
  owner?: string;
}

/** One API object seen through a resource: its id, the inputs that describe it as it is, and computed outputs. */
export interface Observed<I, O> {
  id: string;
  /** The inputs as the object really is (refresh stores them; adoption compares them with the requested ones). */
  inputs: I;
  /** Computed outputs beyond the inputs (stored outputs are `{...inputs, ...outputs}`). */
  outputs: O;
  /** The owner's mark the object carries (kinds with `ownerMark`; ownership.ts), taken out of its inputs. */
  mark?: string;
}

/** A computed output holding the object's id: a number (`numeric: true`) or the id's very text. */
export type IdOutput<O> = {
  [K in keyof O & string]-?: NonNullable<O[K]> extends number ? { name: K; numeric: true } : NonNullable<O[K]> extends string ? { name: K; numeric: false } : never;
}[keyof O & string];

/** Resources that can be adopted spread `adoptionInputs` into their shape; action-like resources have nothing to adopt. */
export type InputShape = z.ZodRawShape;
export type InputsOf<Shape extends InputShape> = z.output<z.ZodObject<Shape>>;

/** The stored outputs of a resource, as the engine hands them back. */
export type State<Shape extends InputShape, O> = InputsOf<Shape> & O;

/**
 * A resource type written against the API client. The input schema must be idempotent (parsing its own output
 * gives the same value): create and update parse the inputs that check already normalised.
 *
 * Which inputs do what, in one place:
 * - every input changes in place (through `update`), except those in `replaceOnChanges`;
 * - `identity` is what no two objects of one parent share: it names the object for adoption, and a replacement
 *   that keeps it must delete the old object first;
 * - `resolvedWhenUnset`, `setOnAdoption` and `secretInputs` are exceptions to comparing, adopting and printing.
 */
export interface ResourceDefinition<Shape extends InputShape, Obj, O extends object> {
  /** Type name in the `bunnynet` module: the token is `pulumi-nodejs:dynamic/bunnynet:<type>`. */
  type: string;
  inputs: z.ZodObject<Shape>;
  /**
   * The outputs computed beyond the inputs, by name (what `describe` returns as `outputs`). The resource class
   * declares their types once, in its outputs interface; `ResourceOutputsMatch` proves the two agree.
   */
  computedOutputs: readonly (keyof O & string)[];
  /** Inputs whose change replaces the object. Every other input changes in place, so `update` is then required. */
  replaceOnChanges: readonly (keyof Shape & string)[];
  /**
   * Inputs that change in place, except for some changes that the API cannot make (a storage zone's replication
   * regions can be added, never removed): `(old, new) => true` replaces. Not called while the new value is unknown.
   */
  replaceWhen?: Partial<Record<keyof Shape & string, (old: unknown, next: unknown) => boolean>>;
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
   * Where the object keeps the owner's mark (ownership.ts): `input`, a text input whose API field the create and every
   * update end with `[pulumi:<hash of the URN>]` (registry.ts writes it, and takes it out of what `describe` answers, so
   * the input's schema must leave MARK_ROOM characters of the API's limit); or `apiField`, a text the API keeps that is
   * no input, which the definition's create writes itself (`markFor(ctx)`) and its `describe` answers as `mark`.
   * An object found at create that carries this resource's mark is its own, made by a create an `up` cut off (Ctrl-C, a
   * killed runner: docs/guides/interrupted-deployments.md), and is taken back without `adoptExisting`, its inputs then
   * set by `update`. Any other object with the identity (another stack's, another resource's, a hand-made one) is
   * refused. Kinds without a mark take nothing without `adoptExisting`; their refusal prints the command that does.
   */
  ownerMark?: { input: keyof Shape & string } | { apiField: string };
  /**
   * Inputs that may hold a secret (a value, a key, a signed URL). A check failure on one names it in the reason
   * only: the engine prints the value of a failure's property, secret or not (see checking.ts).
   */
  secretInputs?: readonly (keyof Shape & string)[];
  /**
   * Outputs stored encrypted whatever the program passed (`additionalSecretOutputs`): a value that is always a
   * secret (a script secret's value, a library key) or a computed one (a password the API generates).
   */
  secretOutputs?: readonly string[];
  /**
   * The computed output whose value is the object's id (`describe` answers `id: String(outputs[idOutput.name])`):
   * the resource class derives it from the resource's id (base.ts), which the engine knows at every preview of an
   * update, so the children that take it stay unchanged in the preview of a change to this object alone. `numeric`
   * when the output is a number (the id converted with `Number`); the compiler checks it against the output's type.
   */
  idOutput?: IdOutput<O>;
  /**
   * How `pulumi import` and `Resource.get` name an object of this type (the plugin only: the dynamic provider refuses
   * both). Omitted: the type cannot be imported, and says so. See pulumi/importIds.ts.
   */
  importId?: ImportId<State<Shape, O>> | NotImportable;
  describe(obj: Obj, requested: InputsOf<Shape>): Observed<InputsOf<Shape>, O>;
  /**
   * The existing object with the identity of `inputs`, if any. Omitted when there is nothing to adopt or
   * look up (an action, a setting of another object): create then always runs and must be safe to repeat.
   */
  find?(ctx: ResourceContext, inputs: InputsOf<Shape>): Promise<Obj | undefined>;
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
  /**
   * Changes from the old inputs that the resource refuses (a volume whose data would go), judged by check on an
   * update's old and checked new inputs, before any call. Values not known yet are never judged here.
   */
  checkChange?(olds: Plain, news: Plain): CheckFailure[];
  /**
   * For kinds whose API takes a second object with the same identity (no `refusesDuplicates`): every object with the
   * identity of `inputs`, read afresh. Read after each create, so that of two created at once (two deployments
   * racing past the look-up) exactly one stays: the newer, by id, is deleted again by its creator, who is then told as
   * if the look-up had found the other (adoption.ts). Its `resolvedWhenUnset` inputs left unset hold the created
   * object's values then, so they are not looked up again.
   */
  findAll?(ctx: ResourceContext, inputs: InputsOf<Shape>): Promise<Obj[]>;
  /**
   * The zones this object's create, update and delete write to (`pullZoneWrites(id)`, `shieldZoneWrites(id)` of
   * http/zoneWrites.ts): within the process, writes to one zone are sent one at a time, as bunny.net's API loses
   * concurrent ones. `values` are the inputs of a create (`id` unset) or the stored state of an update or delete.
   */
  writeZones?(ctx: ResourceContext, values: InputsOf<Shape>, id: string | undefined): readonly string[] | Promise<readonly string[]>;
  /**
   * Reads that may refuse a create and do not depend on the look-up (another kind of object holding the name): sent
   * together with `find`, so they cost no round trip in a row of their own (adoption.ts). Throws to refuse. Not run
   * when the look-up finds the object (it is adopted, not created), as if it were part of `create`.
   */
  beforeCreate?(ctx: ResourceContext, inputs: InputsOf<Shape>): Promise<void>;
  create(ctx: ResourceContext, inputs: InputsOf<Shape>): Promise<Obj>;
  /**
   * Brings an existing object that create takes over (adopted, taken back, or kept after a lost answer) to where
   * `create` leaves one: e.g. an app whose deployment a cut create left running is waited for until it runs. The
   * object as it then is.
   */
  whenFound?(ctx: ResourceContext, obj: Obj, inputs: InputsOf<Shape>): Promise<Obj>;
  /** The object, or undefined when it is gone (a NotFoundError also counts as gone). */
  get(ctx: ResourceContext, id: string, state: State<Shape, O>): Promise<Obj | undefined>;
  update?(ctx: ResourceContext, id: string, state: State<Shape, O>, inputs: InputsOf<Shape>): Promise<Obj>;
  /**
   * Deletes the object; a NotFoundError (already gone) counts as success. A delete that would leave other objects
   * broken (a storage zone a pull zone still serves from) refuses, saying what to do, unless `replacing`: the object
   * is the original of a replacement in this deployment, whose dependents in the program move to the new one.
   */
  delete(ctx: ResourceContext, id: string, state: State<Shape, O>, replacing: boolean): Promise<void>;
}

/**
 * The id a user gives `pulumi import` (or `Resource.get`) for a type whose API reads an object within its parent: the
 * parent's ids and the object's own, joined by "/". `parse` turns its parts into the object's own id (the one create
 * stores, so the next `up` has no diff) and the stored state that `get` reads it with.
 */
export interface ImportId<S> {
  /** The format users type, each part `<name>`, joined by "/"; the last part takes the rest (a file's path). */
  format: string;
  /** The parts of an id in `format` (as many as it has, none empty). Throws naming the part that is not valid. */
  parse(parts: readonly string[]): { id: string; state: Partial<S> };
  /** What an import cannot read (a secret's value): the next `up` sets it from the program. */
  notRead?: string;
}

/** A type with nothing to import (an action, a one-off deletion): why, for the refusal. */
export interface NotImportable {
  notImportable: string;
}

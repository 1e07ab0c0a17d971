import { AlreadyExistsError, BunnyError, NetworkError, NotFoundError, ServerError } from "../http/errors";
import { started } from "../http/together";
import type { InputShape, InputsOf, Observed, ResourceContext, ResourceDefinition, State } from "./definition";
import { type Plain, sameValue } from "./wire";
import { writingTo } from "./writeZones";
import { markFor, provenOwn, whose } from "./ownership";
import { lookUpAfter, lookUpRounds } from "./lookUps";

/**
 * Create, or adopt: a create never makes a duplicate. An existing object with the same identity is adopted when the
 * program allows it (`adoptExisting`) and it matches; a create whose answer was lost (5xx, timeout) is looked up
 * before anything is sent again, and kept when found. Without `adoptExisting`, an object found is taken only when it
 * is proven this resource's own (ownership.ts: the mark its create wrote, or BUNNYNET_ADOPT naming it): an interrupted
 * `up` left it. Anything else is refused, saying how to take it over.
 */

/** Whether a failure left the API's state unknown: the server may have acted (not a refusal). */
export function isAmbiguous(e: unknown): boolean {
  return e instanceof ServerError || (e instanceof NetworkError && !e.notSent);
}

/** How many times a create is sent when each answer is lost and the look-up shows nothing was made. */
export const CREATE_ATTEMPTS = 3;

type Definition<Shape extends InputShape, Obj, O extends object> = ResourceDefinition<Shape, Obj, O>;
type Seen<Shape extends InputShape, O> = Observed<InputsOf<Shape>, O>;

/**
 * Creates the object, or adopts an existing one with the same identity when allowed. The look-up comes first,
 * unless the API refuses duplicates itself (`refusesDuplicates`) and the program does not ask to adopt: then only a
 * refused create looks (an adoption the create's refusal would only delay: `bunnynet export`'s programs adopt with
 * reads alone). The reads that may refuse the create (`beforeCreate`) are sent together with the look-up.
 * After an ambiguous failure the object is looked up before anything is tried again, so a create whose answer
 * was lost is not repeated into a duplicate (and when the look-up fails too, nothing is).
 */
export async function createOrAdopt<Shape extends InputShape, Obj, O extends object>(
  def: Definition<Shape, Obj, O>,
  ctx: ResourceContext,
  inputs: InputsOf<Shape>,
): Promise<Seen<Shape, O>> {
  const find = def.find;
  const beforeCreate = async () => void (await def.beforeCreate?.(ctx, inputs));
  if (!find) {
    await beforeCreate();
    return def.describe(await def.create(ctx, inputs), inputs);
  }
  // A program that asks to adopt expects the object to exist: the look-up comes first, and no create is sent to be refused.
  if (!def.refusesDuplicates || wantsAdoption(inputs)) {
    // Expecting a create, the reads that may refuse it go at once with the look-up (a failure of both reports the
    // look-up's, as when it came first); expecting an adoption, only once nothing was found.
    const early = wantsAdoption(inputs) ? undefined : started(beforeCreate());
    const existing = await find(ctx, inputs).catch(async (e: unknown) => {
      await early?.settled();
      throw e;
    });
    if (existing !== undefined) return takeOver(def, ctx, existing, inputs, wantsAdoption(inputs));
    await (early ? early.result() : beforeCreate());
  } else {
    await beforeCreate();
  }
  for (let attempt = 1; ; attempt++) {
    const outcome = await def.create(ctx, inputs).then(
      (obj) => ({ created: obj }),
      (failure: unknown) => ({ failure }),
    );
    if ("created" in outcome) return keepUnlessNewer(def, ctx, outcome.created, inputs);
    const { failure } = outcome;
    const duplicate = failure instanceof AlreadyExistsError;
    if (!duplicate && !isAmbiguous(failure)) throw failure;
    const found = await lookUpAfter(failure, () => find(ctx, inputs), def, ctx, lookUpRounds(ctx));
    // Someone else created it meanwhile: the same rule as before. Our own lost answer: ours to keep, made by this
    // create, so not an adoption a later delete must leave (see adoptedHere).
    if (found !== undefined) {
      // A kind with a mark knows whether what it found is its own: another's (a racing stack's) is never kept.
      const own = !duplicate && (def.ownerMark === undefined || def.describe(found, inputs).mark === markFor(ctx));
      return own ? keepOwn(def, ctx, found, inputs, failure) : takeOver(def, ctx, found, inputs, wantsAdoption(inputs), true, true);
    }
    if (duplicate || attempt >= CREATE_ATTEMPTS) throw failure;
  }
}

/**
 * After a create of a kind whose API takes duplicates (`findAll`): two deployments whose look-ups ran at once both
 * created. Each creator reads the objects with the identity back, and the one with the higher id yields: its creator
 * deletes it again and goes on as if its look-up had found the other (adopted when allowed and matching, else the
 * adoptExisting advice). The later of two creates always finds the earlier in its read-back, so exactly one stays,
 * whatever the timing. When the read-back fails, ours stays: it exists, and failing would leave it out of the state.
 */
async function keepUnlessNewer<Shape extends InputShape, Obj, O extends object>(
  def: Definition<Shape, Obj, O>,
  ctx: ResourceContext,
  created: Obj,
  inputs: InputsOf<Shape>,
): Promise<Seen<Shape, O>> {
  const ours = def.describe(created, inputs);
  // With the inputs the create resolved (a rule's shield zone, found from its pull zone): not looked up again.
  const all = def.findAll ? await def.findAll(ctx, withResolved(def, inputs, ours)).catch(() => undefined) : undefined;
  const older = (all ?? [])
    .map((obj) => ({ obj, id: def.describe(obj, inputs).id }))
    .filter((other) => isOlder(other.id, ours.id))
    .sort((a, b) => (isOlder(a.id, b.id) ? -1 : 1))[0];
  if (older === undefined) return ours;
  const race = `another deployment created it at the same time as this one, and the one created here (id ${ours.id}) yielded`;
  try {
    const state = { ...ours.inputs, ...ours.outputs } as State<Shape, O>;
    await writingTo(def, ctx, state, ours.id, () => def.delete(ctx, ours.id, state, false));
  } catch (e) {
    throw new Error(
      `${def.type} id ${older.id} has the same identity: ${race}, but deleting it failed (${(e as Error).message}). Delete ${def.type} id ${ours.id} and run again.`,
      { cause: e },
    );
  }
  try {
    // Never taken without adoptExisting: the other deployment's object, not one this resource's cut create left.
    return await takeOver(def, ctx, older.obj, inputs, wantsAdoption(inputs), false);
  } catch (e) {
    throw new Error(`${(e as Error).message} (${race}: it was deleted again, so one remains.)`, { cause: e });
  }
}

/** The inputs, with those left unset that the object resolved (`resolvedWhenUnset`) set to its values. */
function withResolved<Shape extends InputShape, Obj, O extends object>(def: Definition<Shape, Obj, O>, inputs: InputsOf<Shape>, observed: Seen<Shape, O>): InputsOf<Shape> {
  const values: Plain = { ...(observed.inputs as Plain), ...(observed.outputs as Plain) };
  const resolved = (def.resolvedWhenUnset ?? []).filter((k) => (inputs as Plain)[k] === undefined && values[k] !== undefined);
  return { ...inputs, ...Object.fromEntries(resolved.map((k) => [k, values[k]])) };
}

/** Whether id `a` was given before `b`: the API's ids grow (numbers compared as numbers). */
function isOlder(a: string, b: string): boolean {
  const [x, y] = [Number(a), Number(b)];
  return Number.isFinite(x) && Number.isFinite(y) ? x < y : a < b;
}

function wantsAdoption(inputs: object): boolean {
  return (inputs as Plain).adoptExisting === true;
}

/**
 * How an object found is taken over (`adopt`): `refused` throws; `proven` is this resource's own (every differing
 * input that changes in place is then set); `adopted` matched the inputs (adoptExisting), or is this create's own
 * object after a lost answer (only `setOnAdoption` inputs are then set).
 */
type Taking = "proven" | "adopted";

/** `preExisting`: the object was there before this create (found by the look-up, or the API refused a duplicate), not made by it. */
function adopt<Shape extends InputShape, Obj, O extends object>(
  def: Definition<Shape, Obj, O>,
  ctx: ResourceContext,
  obj: Obj,
  inputs: InputsOf<Shape>,
  allowed: boolean,
  mayTakeBack = true,
  preExisting = true,
): { observed: Seen<Shape, O>; taking: Taking } {
  const observed = def.describe(obj, inputs);
  // Identity as stored: a resolved input (resolvedWhenUnset) shows its value, not "undefined"; an unset one is left out.
  const identityValues: Plain = { ...(inputs as Plain), ...(observed.outputs as Plain) };
  const named = def.identity.filter((k) => identityValues[k] !== undefined && identityValues[k] !== null);
  const who = `${def.type} ${named.map((k) => `${k}=${JSON.stringify(identityValues[k])}`).join(", ")} already exists (id ${observed.id})`;
  // Taken back or adopted, it is recorded either way: under `pulumi up --replace` the replacement may find the
  // original's own object, which the delete of the original must then leave (see adoptedHere).
  if (mayTakeBack && provenOwn(def, ctx, observed)) {
    if (preExisting) adoptedHere.add(adoptionKey(def.type, observed.id));
    return { observed, taking: "proven" };
  }
  if (!allowed) throw new Error(`${who}${whose(def, ctx, observed)}`);
  // Only property names: values (e.g. a default value) may be secret.
  const differing = differingInputs(def, observed, inputs).filter((k) => !def.setOnAdoption?.includes(k));
  if (differing.length > 0) {
    throw new Error(`${who} but differs from the inputs in: ${differing.join(", ")}. Change the inputs to match it to adopt it, or remove it first.`);
  }
  if (preExisting) adoptedHere.add(adoptionKey(def.type, observed.id));
  return { observed, taking: "adopted" };
}

/**
 * The objects this deployment adopted, by type and id. The engine replaces a resource create-before-delete, the
 * replacement's create and the original's delete in the same plugin process (one per provider for the whole command:
 * pulumi/pulumi pkg/resource/deploy/providers/registry.go). When the replacement adopted the original's own object
 * (`pulumi up --replace`, for which the engine asks no diff: pkg/resource/deploy/step_generator.go:2888-2891; or a
 * resource renamed without an alias, with adoptExisting), deleting the original would delete the object the new state
 * holds: `adoptedInThisCommand` tells the delete to leave it.
 */
const adoptedHere = new Set<string>();
const adoptionKey = (type: string, id: string) => `${type}\0${id}`;

/** A new deployment (the provider's Configure, see session.ts): what earlier ones adopted is no replaced original's. */
export function forgetAdoptions(): void {
  adoptedHere.clear();
}

/** Whether this deployment adopted the object (see `adoptedHere`): then a delete of it is the replaced original's. */
export function adoptedInThisCommand(type: string, id: string): boolean {
  return adoptedHere.has(adoptionKey(type, id));
}

function differingInputs<Shape extends InputShape, Obj, O extends object>(def: Definition<Shape, Obj, O>, observed: Seen<Shape, O>, inputs: InputsOf<Shape>): string[] {
  return Object.keys(def.inputs.shape).filter((k) => k !== "adoptExisting" && !sameValue((observed.inputs as Plain)[k], (inputs as Plain)[k]));
}

/**
 * An existing object taken over (adopted, taken back, or kept after a lost answer): refused unless `adopt` allows it,
 * then brought to where a create leaves it (`whenFound`: an app whose deployment still runs is waited for), and its
 * `setOnAdoption` inputs set.
 */
async function takeOver<Shape extends InputShape, Obj, O extends object>(
  def: Definition<Shape, Obj, O>,
  ctx: ResourceContext,
  obj: Obj,
  inputs: InputsOf<Shape>,
  allowed: boolean,
  mayTakeBack = true,
  preExisting = true,
): Promise<Seen<Shape, O>> {
  const { observed, taking } = adopt(def, ctx, obj, inputs, allowed, mayTakeBack, preExisting);
  return settle(def, ctx, def.whenFound ? def.describe(await def.whenFound(ctx, obj, inputs), inputs) : observed, inputs, taking);
}

/**
 * The object this create made, found after its answer was lost (`createFailure`: a 5xx, a cut connection), brought to
 * where a create leaves one. When that fails (a script's release), it is deleted again: kept, it would be in no state,
 * and the next `up` would refuse it as existing, unless it carries this resource's mark (`ownerMark`): the next `up`
 * then takes it back.
 */
async function keepOwn<Shape extends InputShape, Obj, O extends object>(def: Definition<Shape, Obj, O>, ctx: ResourceContext, obj: Obj, inputs: InputsOf<Shape>, createFailure: unknown): Promise<Seen<Shape, O>> {
  const { observed } = adopt(def, ctx, obj, inputs, true, true, false);
  try {
    return await settle(def, ctx, def.whenFound ? def.describe(await def.whenFound(ctx, obj, inputs), inputs) : observed, inputs, "adopted");
  } catch (e) {
    if (def.ownerMark !== undefined && ctx.owner !== undefined) throw e;
    const state = { ...observed.inputs, ...observed.outputs } as State<Shape, O>;
    const removal = await writingTo(def, ctx, state, observed.id, () => def.delete(ctx, observed.id, state, false)).then(
      () => undefined,
      (err: unknown) => (err instanceof NotFoundError ? undefined : (err as Error)),
    );
    const made = `the ${def.type} this create made (id ${observed.id}; ${createOutcome(createFailure)})`;
    if (removal) throw new Error(`${(e as Error).message}. Deleting ${made} failed too (${removal.message}): delete it, or set adoptExisting: true to keep it, and run again.`, { cause: e });
    throw new Error(`${(e as Error).message}. ${made[0].toUpperCase()}${made.slice(1)} was deleted again, so nothing is left behind and the next run starts over.`, { cause: e });
  }
}

/** How a create that had made its object ended, in a clause: the server's answer, or none at all. */
function createOutcome(failure: unknown): string {
  if (failure instanceof BunnyError && failure.status !== undefined) return `the create was answered ${failure.status}, yet had made it`;
  return "the create's answer was lost, yet it had made it";
}

/**
 * An object taken over, brought to the inputs with `update`: an adopted one's `setOnAdoption` inputs, a proven own
 * one's every differing input (the program may have changed since its cut create). An input that only a replacement
 * changes cannot be set: the object is refused, saying so.
 */
async function settle<Shape extends InputShape, Obj, O extends object>(
  def: Definition<Shape, Obj, O>,
  ctx: ResourceContext,
  observed: Seen<Shape, O>,
  inputs: InputsOf<Shape>,
  taking: Taking,
): Promise<Seen<Shape, O>> {
  const differing = differingInputs(def, observed, inputs);
  const fixed = differing.filter((k) => taking === "proven" && def.replaceOnChanges.includes(k) && !def.setOnAdoption?.includes(k));
  if (fixed.length > 0) {
    throw new Error(
      `${def.type} id ${observed.id} is this resource's own (an interrupted \`pulumi up\` made it) but differs in ${fixed.join(", ")}, which cannot change in place: delete it and run again.`,
    );
  }
  const unsettled = differing.filter((k) => taking === "proven" || def.setOnAdoption?.includes(k));
  if (unsettled.length === 0 || !def.update) return observed;
  const state = { ...observed.inputs, ...observed.outputs } as State<Shape, O>;
  const update = def.update;
  // An update of the object found: its zones, not the create's (a Shield zone's settings, not its pull zone).
  return def.describe(await writingTo(def, ctx, state, observed.id, () => update(ctx, observed.id, state, inputs)), inputs);
}

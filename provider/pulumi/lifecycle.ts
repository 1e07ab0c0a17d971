import type * as pulumi from "@pulumi/pulumi";
import { UnauthorizedError, isNotFound } from "../http/errors";
import { adoptedInThisCommand, createOrAdopt } from "./adoption";
import { checkResource } from "./checking";
import { isReplacing, markReplacing } from "./replacements";
import type { InputShape, InputsOf, Observed, ResourceContext, ResourceDefinition, State } from "./definition";
import { ProviderSession } from "./session";
import { writingTo } from "./writeZones";
import type { ResourceImplementation } from "./types";
import { OWNER_KEY, type Plain, UNKNOWN, pickInputs, plain, sameBesidesAssets, withoutElidedAssets, withoutProvider } from "./wire";

/**
 * The dynamic provider of one resource type, built from its definition: what the engine calls (configure, check,
 * diff, create, read, update, delete) mapped onto the definition's API calls.
 */
export function implement<Shape extends InputShape, Obj, O extends object>(def: ResourceDefinition<Shape, Obj, O>): ResourceImplementation {
  type I = InputsOf<Shape>;
  const session = new ProviderSession();
  const ctx: ResourceContext = {
    get client() {
      return session.client();
    },
  };
  // A create's or update's context names the resource (its URN, in `__owner`: ownership.ts), whose mark proves its objects.
  const ownedBy = (props: Plain): ResourceContext => {
    const owner = props[OWNER_KEY];
    return typeof owner === "string" && owner !== "" ? { get client() { return session.client(); }, owner } : ctx;
  };
  const inputKeys = Object.keys(def.inputs.shape);
  const parse = (props: Plain): I => def.inputs.parse(withoutProvider(props));
  const stored = (o: Observed<I, O>): Plain => plain({ ...o.inputs, ...o.outputs });
  const asState = (props: Plain) => withoutProvider(props) as State<Shape, O>;

  return {
    async configure(req) {
      session.configure(req.config);
    },

    async check(olds, news) {
      // A missing key (or a bad setting) is refused at preview, with the fix, rather than at the first API call of `up`.
      const problem = session.settingsProblem();
      if (problem) return { inputs: news, failures: [{ property: "", reason: problem }] };
      const checked = withOwner(await checkResource(def, news), news);
      const old = withoutProvider(olds ?? {});
      if (!def.checkChange || (checked.failures ?? []).length > 0 || Object.keys(old).length === 0) return checked;
      return { inputs: checked.inputs, failures: def.checkChange(old, checked.inputs as Plain) };
    },

    async diff(id, olds, news) {
      const { changed, replaces, deleteBeforeReplace } = diffInputs(def, olds, news);
      if (replaces.length > 0) markReplacing(def.type, id);
      return { changes: changed.length > 0, replaces, deleteBeforeReplace };
    },

    async create(news) {
      const inputs = parse(news);
      const owned = ownedBy(news);
      const observed = await writingTo(def, owned, inputs, undefined, () => createOrAdopt(def, owned, inputs));
      return { id: observed.id, outs: { ...stored(observed), ...ownerOf(news) } };
    },

    async read(id, props = {}) {
      const state = asState(props);
      const obj = await def.get(ctx, id, state).catch((e: unknown) => {
        if (isNotFound(e)) return undefined;
        throw withSavedConfigHint(e, session.keySetting());
      });
      if (obj === undefined) return { id: undefined, props: {} };
      const observed = def.describe(obj, pickInputs(state, inputKeys) as I);
      // A refresh keeps the owner's URN among the inputs it rewrites (a read is given only the outputs: they keep it too).
      const owner = ownerOf(props);
      return { id: observed.id, props: { ...withoutElidedAssets(stored(observed)), ...owner }, inputs: { ...withoutElidedAssets(plain(observed.inputs as Plain)), ...owner } };
    },

    async update(id, olds, news) {
      const update = def.update;
      if (!update) throw new Error(`${def.type} cannot change in place`);
      const inputs = parse(news);
      const state = asState(olds);
      const owned = ownedBy(news);
      const obj = await writingTo(def, owned, state, id, () => update(owned, id, state, inputs));
      return { outs: { ...stored(def.describe(obj, inputs)), ...ownerOf(news) } };
    },

    async delete(id, props) {
      // The original of a replacement whose new resource adopted this very object: the object is the new one's now.
      if (adoptedInThisCommand(def.type, id)) return;
      const state = asState(props);
      try {
        await writingTo(def, ctx, state, id, () => def.delete(ctx, id, state, isReplacing(def.type, id)));
      } catch (e) {
        if (!isNotFound(e)) throw withSavedConfigHint(e, session.keySetting());
      }
    },
  };
}

/** The owner's URN of a resource's properties, as a property to add to what goes back to the engine. */
function ownerOf(props: Plain): Plain {
  const owner = props[OWNER_KEY];
  return typeof owner === "string" ? { [OWNER_KEY]: owner } : {};
}

/** Check's inputs keep the owner's URN (the host adds back only `__provider` of what check drops), so create gets it. */
function withOwner(checked: pulumi.dynamic.CheckResult, news: Plain): pulumi.dynamic.CheckResult {
  const owner = news[OWNER_KEY];
  return owner === undefined || checked.inputs === undefined ? checked : { ...checked, inputs: { ...checked.inputs, [OWNER_KEY]: owner } };
}

/**
 * The diff of a resource's stored outputs (`olds`) and checked new inputs, as both surfaces answer it (the dynamic
 * provider and the plugin, which also names each change: plugin/resourceProvider.ts): the inputs that changed, those of
 * them that replace, and whether the old object must go first.
 */
export function diffInputs<Shape extends InputShape, Obj, O extends object>(
  def: ResourceDefinition<Shape, Obj, O>,
  olds: Plain,
  news: Plain,
): { changed: string[]; replaces: string[]; deleteBeforeReplace: boolean } {
  const same = (k: string) =>
    sameBesidesAssets(olds[k], news[k]) || (def.resolvedWhenUnset?.includes(k) === true && (news[k] === undefined || news[k] === null));
  const changed = Object.keys(def.inputs.shape).filter((k) => k !== "adoptExisting" && !same(k));
  const replaceWhen = def.replaceWhen as Record<string, ((old: unknown, next: unknown) => boolean) | undefined> | undefined;
  const replaces = changed.filter((k) => def.replaceOnChanges.includes(k) || (news[k] !== UNKNOWN && replaceWhen?.[k]?.(olds[k], news[k]) === true));
  // Only when the replacement would (or may: an unset resolved input) share the old object's identity must the old one go
  // first (an identity input not known yet is never the same).
  const deleteBeforeReplace = replaces.length > 0 && def.identity.every(same);
  return { changed, replaces, deleteBeforeReplace };
}

/**
 * Refresh and destroy run with the provider config saved in state at the last `pulumi up` (the stack config, or an
 * explicit provider's inputs: pkg/resource/deploy/providers/registry.go loads providers from the old state's inputs), unless run with
 * `--run-program`. The provider cannot tell which ran, so a refused key says both: a key rotated since (then the
 * saved one was sent), or a wrong key in stack config (then the fix the transport's message gave).
 */
function withSavedConfigHint(e: unknown, keySetting: string): unknown {
  if (!(e instanceof UnauthorizedError)) return e;
  return new Error(
    `${e.message} If ${keySetting} was rotated since the last \`pulumi up\` and this was a refresh or destroy without ` +
      `\`--run-program\`, the key saved then was sent: run \`pulumi up\` first, or add \`--run-program\`.`,
    { cause: e },
  );
}

import { createHash } from "node:crypto";
import type { InputShape, InputsOf, Observed, ResourceContext, ResourceDefinition } from "./definition";
import type { Plain } from "./wire";

/**
 * Ownership by proof (issue 42): an object found at create is taken over without `adoptExisting` only when this very
 * resource of this very stack made it. The proof is a mark the create writes into a text the API keeps (a rule's
 * description, a record's comment): `[pulumi:<12 hex>]`, the start of the SHA-256 of the resource's URN. The URN names
 * the stack, the project, the type, the parents' types and the name (pulumi/pulumi sdk/go/common/resource/urn.go), so
 * another stack of the same program, another resource, or a hand-made object never carries it.
 *
 * Where a kind has no such text (a pull zone, a hostname, a file), nothing is taken without `adoptExisting`; the
 * refusal prints the one command that takes the object over without a program edit, with its id filled in:
 * `BUNNYNET_ADOPT='<urn>=<id>' pulumi up`. The user checks that it is the one the program declares; the variable names
 * the resource and the object, so it takes nothing else, and lasts for that command only.
 *
 * Where the URN comes from: the plugin gets it with every Create and Update (pulumi/pulumi proto/pulumi/provider.proto,
 * CreateRequest.urn); a dynamic provider's `create(inputs)` gets only the inputs (@pulumi/pulumi 3.270
 * cmd/dynamic-provider/index.js:212-218), so the resource class passes it as the input `__owner` (base.ts), which
 * check passes through (the host keeps only `__provider` of what check drops: index.js:140).
 */

/** The environment variable that names objects to take over without a program edit: `<urn>=<id>`, one a line or `;`-separated. */
export const ADOPT_VARIABLE = "BUNNYNET_ADOPT";

const MARK = /(?:^|\s)\[pulumi:([0-9a-f]{12})\]$/;

/** The mark of the resource with this URN, as written into the object. */
export function ownerMark(urn: string): string {
  return `[pulumi:${createHash("sha256").update(urn).digest("hex").slice(0, 12)}]`;
}

/** This resource's mark, when its URN is known: what a definition with `ownerMark: { apiField }` writes. */
export function markFor(ctx: ResourceContext): string | undefined {
  return ctx.owner === undefined ? undefined : ownerMark(ctx.owner);
}

/** Of the objects a look-up matched, the one carrying this resource's mark in `textOf`, else the first. */
export function ownFirst<T>(ctx: ResourceContext, matching: readonly T[], textOf: (item: T) => string | null | undefined): T | undefined {
  const mark = markFor(ctx);
  return (mark === undefined ? undefined : matching.find((item) => unmarked(textOf(item)).mark === mark)) ?? matching[0];
}

/** How many characters the mark takes from a text the API limits (the mark and the space before it). */
export const MARK_ROOM = ownerMark("").length + 1;

/** The text as written into the object: the user's text, then the mark (the mark alone when there is no text). */
export function withMark(text: string | undefined | null, mark: string): string {
  const own = unmarked(text).text ?? "";
  return own === "" ? mark : `${own} ${mark}`;
}

/** The user's text of a text the API kept (undefined when it held only a mark, or nothing), and the mark, if any. */
export function unmarked(text: string | undefined | null): { text: string | undefined | null; mark?: string } {
  if (typeof text !== "string") return { text };
  const found = MARK.exec(text);
  if (!found) return { text };
  const own = text.slice(0, found.index).trimEnd();
  return { text: own === "" ? undefined : own, mark: `[pulumi:${found[1]}]` };
}

/**
 * Whether an object found is proven this resource's own, so taken without `adoptExisting`: it carries the mark this
 * resource's create writes (a create an `up` cut off made it), or BUNNYNET_ADOPT names it for this resource.
 */
export function provenOwn(def: { ownerMark?: object }, ctx: ResourceContext, observed: { id: string; mark?: string }): boolean {
  const mark = markFor(ctx);
  return (def.ownerMark !== undefined && mark !== undefined && observed.mark === mark) || takeOverRequested(ctx.owner, observed.id);
}

/** Why an object found is not taken, and the ways to take it: after "already exists (id …)". */
export function whose<Shape extends InputShape, Obj, O extends object>(def: ResourceDefinition<Shape, Obj, O>, ctx: ResourceContext, observed: Observed<InputsOf<Shape>, O>): string {
  const adoption =
    `To manage it with this resource, set adoptExisting: true (it is adopted only if it matches the inputs exactly). ` +
    `If this is the replacement of this very object (\`pulumi up --replace\`), give the resource the option deleteBeforeReplace: true instead: ` +
    `for --replace the engine asks the provider nothing and creates the new object before deleting the old.`;
  const command = ctx.owner === undefined ? "" : ` If an interrupted \`pulumi up\` of this stack made it for this resource, take it over without editing the program: ${takeOverCommand(ctx.owner, observed.id)}`;
  if (def.ownerMark !== undefined && observed.mark !== undefined) {
    const field = "input" in def.ownerMark ? def.ownerMark.input : def.ownerMark.apiField;
    return ` and was made by another stack or resource (its ${field} carries the mark ${observed.mark}; this resource's is ${markFor(ctx) ?? "unknown"}), so it is not taken. ${adoption}`;
  }
  if (def.ownerMark !== undefined) {
    return ` and carries no mark of this resource's (made outside Pulumi, or by a bunnynet-pulumi before marks were written), so it is not taken.${command} ${adoption}`;
  }
  return `, and bunny.net keeps nothing on a ${def.type} that shows which stack made it, so it is not taken.${command} ${adoption}`;
}

/** Whether the environment asks to take over object `id` for the resource `urn` (BUNNYNET_ADOPT). */
export function takeOverRequested(urn: string | undefined, id: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (urn === undefined) return false;
  const entries = (env[ADOPT_VARIABLE] ?? "").split(/[\n;]/).map((e) => e.trim());
  return entries.some((entry) => {
    const at = entry.lastIndexOf("=");
    return at > 0 && entry.slice(0, at).trim() === urn && entry.slice(at + 1).trim() === id;
  });
}

/** The command that takes object `id` over for the resource `urn`, quoted for a POSIX shell. */
export function takeOverCommand(urn: string, id: string): string {
  const quoted = `'${`${urn}=${id}`.replace(/'/g, `'\\''`)}'`;
  return `${ADOPT_VARIABLE}=${quoted} pulumi up`;
}

/**
 * A kind with `ownerMark` as every caller sees it: its create and update write the owner's mark (when the URN is known)
 * into the input's text, and `describe` takes it out again, into `mark` (ownership.ts). So state, diffs, adoption's
 * comparisons and `bunnynet export` see the user's text alone.
 */
export function marking<Shape extends InputShape, Obj, O extends object>(def: ResourceDefinition<Shape, Obj, O>): ResourceDefinition<Shape, Obj, O> {
  if (def.ownerMark === undefined || !("input" in def.ownerMark)) return def;
  const field = def.ownerMark.input;
  const { create, update, describe } = def;
  const marked = (inputs: InputsOf<Shape>, owner: string | undefined): InputsOf<Shape> =>
    owner === undefined ? inputs : { ...inputs, [field]: withMark((inputs as Plain)[field] as string | undefined, ownerMark(owner)) };
  return {
    ...def,
    create: (ctx, inputs) => create(ctx, marked(inputs, ctx.owner)),
    update: update && ((ctx, id, state, inputs) => update(ctx, id, state, marked(inputs, ctx.owner))),
    describe(obj, requested) {
      const observed = describe(obj, requested);
      const { text, mark } = unmarked((observed.inputs as Plain)[field] as string | undefined);
      return { ...observed, inputs: { ...observed.inputs, [field]: text ?? undefined }, mark };
    },
  };
}

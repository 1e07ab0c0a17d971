import { createHash } from "node:crypto";
import type { InputShape, InputsOf, ResourceContext, ResourceDefinition } from "./definition";
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

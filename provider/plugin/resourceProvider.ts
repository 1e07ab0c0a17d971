import "../index"; // every resource module registers its type when loaded
import type { InputShape, ResourceDefinition } from "../pulumi/definition";
import { diffInputs } from "../pulumi/lifecycle";
import { importTarget } from "../pulumi/importIds";
import { markReplacing } from "../pulumi/replacements";
import { definitionOf, implementationOf, registeredTypes } from "../pulumi/registry";
import type { ResourceImplementation } from "../pulumi/types";
import { type Plain, UNKNOWN, plain } from "../pulumi/wire";
import type { Received } from "./properties";

/**
 * One resource type as the plugin serves it: the SAME implementation the dynamic provider runs (`implementationOf`,
 * built from the type's definition by pulumi/lifecycle.ts), with what a plugin can tell the engine and a dynamic
 * provider cannot: a detailed diff with stable outputs, predicted outputs at preview, secrets kept marked, and a read
 * from an id alone (import and `get`).
 */

/** The resource token's module: tokens are `bunnynet:index:<Type>`. */
export const TOKEN_PREFIX = "bunnynet:index:";

type Definition = ResourceDefinition<InputShape, unknown, object>;

/** The engine's PropertyDiff kinds (pulumi/proto provider.proto, PropertyDiff.Kind). */
export const DiffKind = { ADD: 0, ADD_REPLACE: 1, DELETE: 2, DELETE_REPLACE: 3, UPDATE: 4, UPDATE_REPLACE: 5 } as const;

export interface DetailedDiff {
  changes: boolean;
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  detailedDiff: Record<string, number>;
}

/** The type of a `bunnynet:index:<Type>` token, or an error naming the token and the types there are. */
export function typeOfToken(token: string): string {
  const type = token.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : undefined;
  if (type === undefined || definitionOf(type) === undefined) {
    throw new Error(`bunnynet has no resource type ${JSON.stringify(token)}: the types are ${registeredTypes().map((t) => TOKEN_PREFIX + t).join(", ")}`);
  }
  return type;
}

export class ResourceType {
  readonly def: Definition;
  readonly impl: ResourceImplementation;

  constructor(readonly type: string) {
    const def = definitionOf(type);
    const impl = implementationOf(type);
    if (!def || !impl) throw new Error(`bunnynet has no resource type ${type}`);
    this.def = def;
    this.impl = impl;
  }

  get inputKeys(): string[] {
    return Object.keys(this.def.inputs.shape);
  }

  /** Outputs stored encrypted whatever the program passed, and every property that arrived secret. */
  secretKeys(...received: Received[]): Set<string> {
    return new Set([...(this.def.secretOutputs ?? []), ...received.flatMap((r) => [...r.secrets])]);
  }

  /**
   * The diff with every changed input named (ADD/DELETE/UPDATE, or their _REPLACE kinds), the outputs an in-place update
   * keeps (`stables`: the unchanged inputs and the computed ids), and delete-before-replace as the dynamic path decides it.
   * A replacement marks the original (replacements.ts), as the dynamic path does: its delete then knows it is replaced.
   */
  diff(id: string, olds: Plain, news: Plain): DetailedDiff {
    const { changed, replaces, deleteBeforeReplace } = diffInputs(this.def, olds, news);
    if (replaces.length > 0) markReplacing(this.type, id);
    const unset = (v: unknown) => v === undefined || v === null;
    const detailedDiff: Record<string, number> = {};
    for (const k of changed) {
      const replace = replaces.includes(k);
      const kind = unset(olds[k]) ? "ADD" : unset(news[k]) ? "DELETE" : "UPDATE";
      detailedDiff[k] = DiffKind[replace ? (`${kind}_REPLACE` as const) : kind];
    }
    const stables =
      replaces.length > 0 ? [] : [...this.inputKeys.filter((k) => !changed.includes(k) && news[k] !== UNKNOWN), ...this.def.computedOutputs.filter(isIdName)];
    return { changes: changed.length > 0, replaces, stables, deleteBeforeReplace, detailedDiff };
  }

  /** What a create will answer, predicted at preview without any API call: the checked inputs, computed outputs unknown. */
  predictCreate(news: Plain): Plain {
    return { ...plain(news), ...Object.fromEntries(this.def.computedOutputs.map((k) => [k, UNKNOWN])) };
  }

  /**
   * What an in-place update will answer, predicted at preview: the old outputs with the new inputs over them; ids and
   * the other computed outputs kept (an update changes settings, never what the object is), so resources fed from them
   * keep known inputs and show unchanged.
   */
  predictUpdate(olds: Plain, news: Plain): Plain {
    const inputs = Object.fromEntries(this.inputKeys.map((k) => [k, news[k]]));
    return plain({ ...olds, ...inputs });
  }

  /**
   * Read: with state (refresh), as the dynamic provider reads; with an id only (`pulumi import`, `Resource.get`), the
   * object described as its inputs with the schema's defaults applied, so that a program declaring them has no diff.
   * What the API never answers (a secret's value, a pull zone origin's port and scheme) is missing from such inputs.
   * The id is in the format of the definition's `importId` (pulumi/importIds.ts); a type without one is refused.
   */
  async read(id: string, state: Plain, inputs: Plain): Promise<{ id?: string; props: Plain; inputs?: Plain }> {
    const fromIdOnly = Object.keys(state).length === 0 && Object.keys(inputs).length === 0;
    // By id alone, the definition's import id gives the object's own id and the parent ids its `get` reads it within.
    const target = fromIdOnly ? importTarget(this.def, TOKEN_PREFIX + this.type, id) : { id, state };
    const result = await this.impl.read(target.id, target.state as Plain);
    if (result.id === undefined || result.id === "") return { props: {} };
    const props = (result.props ?? {}) as Plain;
    let readInputs = (result.inputs ?? {}) as Plain;
    if (fromIdOnly) {
      const parsed = this.def.inputs.safeParse(readInputs);
      if (parsed.success) readInputs = plain(parsed.data as Plain);
      return { id: result.id, props: { ...props, ...readInputs }, inputs: readInputs };
    }
    return { id: result.id, props, inputs: readInputs };
  }
}

/** Computed outputs that name the object (an id the API gave it): they never change in place. */
function isIdName(name: string): boolean {
  return /Id$|Ids$/.test(name);
}

const types = new Map<string, ResourceType>();

/** The served type of a token (one per process, as the implementations are). */
export function resourceTypeOf(token: string): ResourceType {
  const type = typeOfToken(token);
  let served = types.get(type);
  if (!served) types.set(type, (served = new ResourceType(type)));
  return served;
}

/** Every type's implementation: Configure configures them all at once (each resets the deployment's shared scope). */
export function allImplementations(): ResourceImplementation[] {
  return registeredTypes().map((t) => implementationOf(t)).filter((i): i is ResourceImplementation => i !== undefined);
}

import type { ImportId, InputShape, NotImportable, ResourceDefinition } from "./definition";

/**
 * The ids of `pulumi import bunnynet:index:<Type> <name> <id>` and `Resource.get(name, id)` (the plugin only), as each
 * definition's `importId` says them. The engine hands the id to the provider's Read with no state (import:
 * pulumi/pulumi pkg/resource/deploy/step.go, ImportStep.Apply; get: ReadStep.Apply) and keeps the id Read answers as the
 * resource's id (`if read.ID != "" { s.new.ID = read.ID }`), so a composite id such as `<dnsZoneId>/<recordId>` is
 * stored as the record's own id, the one a create stores: the next `up` has no diff.
 */

type AnyDefinition = Pick<ResourceDefinition<InputShape, unknown, object>, "type" | "importId">;

/** Where an import's id leads: the object's own id and the stored state its definition's `get` reads it with. */
export interface ImportTarget {
  id: string;
  state: Record<string, unknown>;
}

const isImportable = (importId: ImportId<object> | NotImportable | undefined): importId is ImportId<object> => importId !== undefined && "format" in importId;

/** The id format of a type (`<dnsZoneId>/<recordId>`), or undefined when it cannot be imported. */
export function importFormat(def: AnyDefinition): string | undefined {
  return isImportable(def.importId) ? def.importId.format : undefined;
}

/** Why a type cannot be imported, for a refusal and the schema: the definition's reason, or that it has none yet. */
export function notImportableReason(def: AnyDefinition): string {
  const importId = def.importId;
  if (importId !== undefined && "notImportable" in importId) return importId.notImportable;
  return "its definition gives no import id format (importId) yet";
}

/** The names of a format's parts: `<dnsZoneId>/<recordId>` → ["dnsZoneId", "recordId"]. */
export function formatParts(format: string): string[] {
  return format.split("/").map((part) => {
    const name = /^<([A-Za-z]+)>$/.exec(part)?.[1];
    if (name === undefined) throw new Error(`an import id format is <name>/<name>…, got ${JSON.stringify(format)}`);
    return name;
  });
}

/**
 * The object an import id names, or an error naming the type, the format expected and the id given. The last part of
 * a format takes the rest of the id (a file's path holds "/"); no part may be empty.
 */
export function importTarget(def: AnyDefinition, token: string, id: string): ImportTarget {
  const importId = def.importId;
  if (!isImportable(importId)) throw new Error(`${token} cannot be imported or read with get: ${notImportableReason(def)}`);
  const names = formatParts(importId.format);
  const split = id.split("/");
  const parts = [...split.slice(0, names.length - 1), split.slice(names.length - 1).join("/")];
  const refuse = (why?: string) => new Error(`${token} ids are ${importId.format}, got ${JSON.stringify(id)}${why ? `: ${why}` : ""}`);
  if (split.length < names.length) throw refuse(`${names.length} parts joined by "/" expected`);
  const empty = parts.findIndex((p) => p === "");
  if (empty >= 0) throw refuse(`<${names[empty]}> is empty`);
  try {
    const { id: ownId, state } = importId.parse(parts);
    return { id: ownId, state: state as Record<string, unknown> };
  } catch (e) {
    throw refuse(e instanceof Error ? e.message : String(e));
  }
}

/** A part that is an API's numeric id (a zone's, a script's): its number, or an error naming the part. */
export function numericPart(value: string, name: string): number {
  if (!/^[1-9][0-9]*$/.test(value)) throw new Error(`<${name}> must be a positive whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** A type read by its own id alone (a zone, a library): the id is the stored id, and `get` needs no state. */
export function ownIdOnly<S>(name: string, numeric: boolean): ImportId<S> {
  return {
    format: `<${name}>`,
    parse: ([id]) => {
      if (numeric) numericPart(id, name);
      return { id, state: {} };
    },
  };
}

/** A type read within one parent by its own id: `<parentId>/<ownId>`, the parent stored as `parentKey`. */
export function withinParent<K extends string>(parentKey: K, ownName: string, options: { ownNumeric: boolean }): ImportId<{ [P in K]: number }> {
  return {
    format: `<${parentKey}>/<${ownName}>`,
    parse: ([parent, own]) => {
      if (options.ownNumeric) numericPart(own, ownName);
      const parentId = numericPart(parent, parentKey);
      return { id: own, state: { [parentKey]: parentId } as { [P in K]: number } };
    },
  };
}

import type { z } from "zod";
import type { BunnyClient } from "../../client";
import { definitionOf, sameValue } from "../../pulumi";
import "../../index"; // registers every resource type, whose definitions describe the objects
import { type AccountView, EXPORT_KINDS, type ExportKind, NOT_EXPORTED, type ObjectFilter } from "./kinds";
import { EnumMember, type ExtraFiles, FileText, FromConfig, NameTable, type ProgramResource, type ProgramSection, type ProgramValue, Reference } from "./program";

/**
 * `bunnynet export`'s reading of the account: every kind of EXPORT_KINDS read through the typed client (parents
 * before what they hold), each object described by its resource's own `describe` (the inputs adoption compares),
 * left without the inputs that equal their defaults, with references to the objects written before it, in one
 * section per zone. What cannot be read or belongs to another object goes to the report.
 */

export interface ExportOptions {
  /** Resource types to write (all when empty). */
  only: ReadonlySet<string>;
  /** Names or ids per filter flag (a filter given narrows its kind; kinds of other filters are then left out). */
  filters: Partial<Record<ObjectFilter, readonly string[]>>;
  progress(line: string): void;
  /** Aborted on Ctrl-C: the reading stops between reads, and nothing is written. */
  signal?: AbortSignal;
}

export interface Skipped {
  what: string;
  reason: string;
}

export interface ConfigKey {
  key: string;
  secret: boolean;
  what: string;
}

export interface ExportedAccount {
  sections: ProgramSection[];
  files: ExtraFiles;
  config: ConfigKey[];
  skipped: Skipped[];
  /** What adopting will write, by resource. */
  notes: string[];
  /** Objects read, by kind. */
  counts: Record<string, number>;
}

interface Found {
  kind: ExportKind;
  obj: unknown;
  parent?: Found;
  /** Not named by a filter: read for nothing else, dropped before the program. */
  filteredOut: boolean;
  /** Left out, and why. */
  leftOut?: string;
  /** The account read, for what other objects say of this one (`requested`). */
  account: AccountView;
}

const rootOf = (f: Found): Found => (f.parent ? rootOf(f.parent) : f);
const kindIndex = (k: ExportKind) => EXPORT_KINDS.indexOf(k);

/** Whether any kind under `k` (itself included) is wanted: a parent is read for its children even when not written. */
function needed(k: ExportKind, wanted: (k: ExportKind) => boolean): boolean {
  return wanted(k) || EXPORT_KINDS.some((child) => child.parent === k.type && needed(child, wanted));
}

/** The account as a program, or undefined when interrupted. */
export async function readAccount(client: BunnyClient, options: ExportOptions): Promise<ExportedAccount | undefined> {
  const filtered = Object.values(options.filters).some((v) => v && v.length > 0);
  const topLevelWanted = (k: ExportKind): boolean => !filtered || (k.filter !== undefined && (options.filters[k.filter]?.length ?? 0) > 0);
  const wanted = (k: ExportKind): boolean => (options.only.size === 0 || options.only.has(k.type)) && topLevelWanted(rootKind(k));
  const found: Found[] = [];
  const skipped: Skipped[] = [];
  const counts: Record<string, number> = {};
  const account = { objects: (type: string) => found.filter((f) => f.kind.type === type).map((f) => f.obj) };

  // A kind is read when it or one below it is wanted, or when a read kind's `leftOut` looks at its objects.
  const read = (k: ExportKind): boolean => needed(k, wanted) || EXPORT_KINDS.some((other) => other.consults?.includes(k.type) && needed(other, wanted));
  for (const k of EXPORT_KINDS) {
    if (!read(k)) continue;
    const declared = (f: Found) => !k.onlyDeclaredParents || f.kind.leftOut?.(f.obj, account, f.parent?.obj) === undefined;
    const parents: (Found | undefined)[] = k.parent ? found.filter((f) => f.kind.type === k.parent && !f.filteredOut && declared(f)) : [undefined];
    let count = 0;
    for (const parent of parents) {
      if (options.signal?.aborted) return undefined;
      try {
        for await (const obj of await k.read(client, parent?.obj)) {
          const values = k.filter ? options.filters[k.filter] : undefined;
          const named = !values || values.length === 0 || values.some((v) => k.matches?.(obj, v));
          found.push({ kind: k, obj, parent, filteredOut: !named, account });
          count++;
        }
      } catch (e) {
        const where = parent ? ` of ${parent.kind.what} ${parent.kind.label(parent.obj)}` : "";
        skipped.push({ what: `the ${plural(k.what)}${where}`, reason: `cannot be read: ${(e as Error).message}` });
      }
    }
    counts[k.type] = count;
    options.progress(`read ${count} ${count === 1 ? k.what : plural(k.what)}`);
  }
  for (const f of found) {
    if (f.filteredOut) continue;
    const owner = f.kind.leftOut?.(f.obj, account, f.parent?.obj);
    if (owner) {
      f.leftOut = owner;
      if (wanted(f.kind)) skipped.push({ what: `${f.kind.what} ${f.kind.label(f.obj)}`, reason: owner });
    }
  }
  return build(found.filter((f) => !f.filteredOut), wanted, skipped, counts);
}

const plural = (what: string) => (what.endsWith("y") ? `${what.slice(0, -1)}ies` : what.endsWith("s") ? `${what}es` : `${what}s`);

function rootKind(k: ExportKind): ExportKind {
  const parent = k.parent && EXPORT_KINDS.find((p) => p.type === k.parent);
  return parent ? rootKind(parent) : k;
}

/** The program: sections in the order of their root kind, resources in kind order, references to what came before. */
function build(found: Found[], wanted: (k: ExportKind) => boolean, skipped: Skipped[], counts: Record<string, number>): ExportedAccount {
  const names = new NameTable();
  const files: ExtraFiles = {};
  const config: ConfigKey[] = [];
  const notes: string[] = [];
  /** `type.output=value` → the resource written with that output (and the output's whole path). */
  const outputsSeen = new Map<string, Reference>();
  /** Identity (type and identity inputs) → the object declared with it. */
  const identities = new Map<string, string>();
  const roots = dependencyOrder(found.filter((f) => !f.parent).sort((a, b) => kindIndex(a.kind) - kindIndex(b.kind)), found);
  const sections: ProgramSection[] = [];
  for (const root of roots) {
    const members = found.filter((f) => rootOf(f) === root).sort((a, b) => kindIndex(a.kind) - kindIndex(b.kind));
    const resources: ProgramResource[] = [];
    for (const f of members) {
      if (f.leftOut || !wanted(f.kind)) continue;
      const described = describe(f);
      if (!described) {
        skipped.push({ what: `${f.kind.what} ${f.kind.label(f.obj)}`, reason: "its resource cannot describe it" });
        continue;
      }
      // Adoption finds an object by its identity: a second object with the same one would adopt the first.
      const def = definitionOf(f.kind.type);
      const identity = `${f.kind.type}:${JSON.stringify(f.kind.identity ? f.kind.identity(described.inputs) : (def?.identity ?? []).map((k) => described.inputs[k] ?? null))}`;
      const twin = identities.get(identity);
      if (twin) {
        skipped.push({ what: `${f.kind.what} ${f.kind.label(f.obj)} (id ${described.id})`, reason: `has the same ${def?.identity.join(", ")} as ${twin}, and adoption finds objects by it: only the first is declared` });
        continue;
      }
      identities.set(identity, `the one with id ${described.id}`);
      const { name, variable } = names.take(f.kind.name(f.obj, f.parent?.obj), f.kind.type.charAt(0).toLowerCase() + f.kind.type.slice(1));
      const out = {
        variable,
        name,
        addFile: (path: string, content: string | Uint8Array) => void (files[path] = content),
        addConfig: (key: string, secret: boolean, what: string) => void config.push({ key, secret, what }),
        note: (text: string) => void notes.push(`${f.kind.type} ${name}: ${text}`),
      };
      let inputs = described.inputs;
      inputs = f.kind.complete ? f.kind.complete(inputs, f.obj, out) : inputs;
      inputs = withReferences(withEnumNames(inputs, f.kind), f.kind, outputsSeen);
      resources.push({ type: f.kind.type, name, variable, id: described.id, inputs, adopts: !f.kind.adoptsByItself });
      for (const [key, reference] of referableOutputs(f.kind, variable, described.outputs)) outputsSeen.set(key, reference);
    }
    if (resources.length > 0) sections.push({ title: sectionTitle(root), resources });
  }
  return { sections, files, config, skipped, notes, counts };
}

function sectionTitle(root: Found): string {
  const title = `${root.kind.what.charAt(0).toUpperCase()}${root.kind.what.slice(1)} ${root.kind.label(root.obj)}`;
  return root.leftOut ? `${title} (${root.leftOut}: not declared here)` : title;
}

type Described = { id: string; inputs: Record<string, ProgramValue>; outputs: Record<string, unknown> };

/** Each found object's description, made once (the section order and the program both read it; neither changes it). */
const descriptions = new WeakMap<Found, Described | undefined>();

/** The object as its resource's inputs (without adoptExisting and the defaults), its id and outputs. */
function describe(f: Found): Described | undefined {
  if (!descriptions.has(f)) descriptions.set(f, describeAnew(f));
  return descriptions.get(f);
}

function describeAnew(f: Found): Described | undefined {
  const def = definitionOf(f.kind.type);
  if (!def) return undefined;
  // `describe` states a setting left to the API only when it was asked for: every input is asked, with a marker.
  const asked = f.kind.everySetting ? Object.fromEntries(Object.keys(def.inputs.shape).map((k) => [k, ASKED])) : {};
  const requested = { ...asked, ...f.kind.requested?.(f.parent?.obj, f.obj, f.account) };
  const observed = def.describe(f.kind.described ? f.kind.described(f.obj) : f.obj, requested as never);
  const { adoptExisting: _adopt, ...all } = observed.inputs as Record<string, unknown>;
  // An empty text or list among settings left to the API says nothing a reader needs (unset, the API's stays).
  const empty = (v: unknown) => f.kind.everySetting && (v === "" || (Array.isArray(v) && v.length === 0));
  const inputs = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== ASKED && !empty(v)));
  return { id: observed.id, inputs: withoutDefaults(def.inputs, inputs), outputs: observed.outputs as Record<string, unknown> };
}

const NO_DEFAULT = Symbol("no default");
/** What an input asked of `describe` holds until it is described (never an API value). */
const ASKED = Object.freeze({ asked: true });

/** What the schema gives when the input is left out, or NO_DEFAULT. */
function defaultOf(schema: z.ZodType): unknown {
  const parsed = schema.safeParse(undefined);
  return parsed.success && parsed.data !== undefined ? parsed.data : NO_DEFAULT;
}

/** What `pick` finds in the schema or inside its optional/default wrappers (four deep at most). */
function insideWrappers<T>(schema: z.ZodType, pick: (s: unknown) => T | undefined): T | undefined {
  let s: unknown = schema;
  for (let i = 0; i < 4 && s; i++) {
    const found = pick(s);
    if (found !== undefined) return found;
    s = (s as { def?: { innerType?: unknown } }).def?.innerType;
  }
  return undefined;
}

/** The object schema inside optional/default wrappers, if it is one. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  return insideWrappers(schema, (s) => {
    const shape = (s as { shape?: Record<string, z.ZodType> }).shape;
    return shape && typeof shape === "object" ? shape : undefined;
  });
}

/** The schema of a record's values inside optional/default wrappers (a container app's containers by name), if it is one. */
function recordValues(schema: z.ZodType): z.ZodType | undefined {
  return insideWrappers(schema, (s) => {
    const def = (s as { def?: { type?: string; valueType?: z.ZodType } }).def;
    return def?.type === "record" ? def.valueType : undefined;
  });
}

/** Inputs without the unset ones and those equal to their default (as a person writes them); nested objects and records of them too. */
function withoutDefaults(schema: z.ZodType, value: Record<string, unknown>): Record<string, ProgramValue> {
  const values = recordValues(schema);
  if (values) {
    const plain = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v) && objectShape(values) ? withoutDefaults(values, v as Record<string, unknown>) : (v as ProgramValue)]));
  }
  const shape = objectShape(schema) ?? {};
  const kept: Record<string, ProgramValue> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue;
    const field = shape[key];
    const fallback = field ? defaultOf(field) : NO_DEFAULT;
    if (fallback !== NO_DEFAULT && sameValue(fallback, v)) continue;
    const nested = field && typeof v === "object" && !Array.isArray(v) ? (objectShape(field) ?? recordValues(field)) : undefined;
    kept[key] = nested ? withoutDefaults(field, v as Record<string, unknown>) : (v as ProgramValue);
  }
  return kept;
}

/**
 * Replaces the value at a dotted path of plain objects and lists of them (markers are not entered), when `change` gives
 * another; `*` stands for every entry of a map (a container app's containers by name). `change` answering DROP removes it.
 */
function replaceAt(inputs: Record<string, ProgramValue>, path: string, change: (value: ProgramValue) => ProgramValue | typeof DROP | undefined): Record<string, ProgramValue> {
  return replaceAtKeys(inputs, path.split("."), change);
}

/** `replaceAt` on the path's keys (a map entry's name, put for `*`, may hold a dot). */
function replaceAtKeys(inputs: Record<string, ProgramValue>, [key, ...rest]: string[], change: (value: ProgramValue) => ProgramValue | typeof DROP | undefined): Record<string, ProgramValue> {
  if (key === "*") return Object.keys(inputs).reduce((result, k) => replaceAtKeys(result, [k, ...rest], change), inputs);
  const value = inputs[key];
  if (value === undefined) return inputs;
  if (rest.length === 0) {
    const changed = change(value);
    if (changed === DROP) {
      const { [key]: _dropped, ...kept } = inputs;
      return kept;
    }
    return changed === undefined ? inputs : { ...inputs, [key]: changed };
  }
  const inner = (v: ProgramValue) => (v === null || typeof v !== "object" || Array.isArray(v) || isMarker(v) ? v : replaceAtKeys(v as Record<string, ProgramValue>, rest, change));
  // A list of objects (a WAF rule's conditions): the path goes on into each of them.
  if (Array.isArray(value)) return { ...inputs, [key]: value.map(inner) };
  if (value === null || typeof value !== "object" || isMarker(value)) return inputs;
  const changed = inner(value) as Record<string, ProgramValue>;
  // An object left empty by a drop goes with it (it held only what was stated to find a reference).
  if (Object.keys(changed).length === 0 && Object.keys(value).length > 0) {
    const { [key]: _emptied, ...kept } = inputs;
    return kept;
  }
  return { ...inputs, [key]: changed };
}

/** What `change` answers to remove the value. */
const DROP = Symbol("drop");

/**
 * The outputs of a resource that inputs may refer to, as `type.output=value` keys: its scalar outputs, and those of
 * its map outputs by entry (`endpoints.site.id`), also keyed with the entry's name as `*` (`endpoints.*.id`), so
 * that a reference target can name any entry.
 */
function referableOutputs(k: ExportKind, variable: string, outputs: Record<string, unknown>): [string, Reference][] {
  const found: [string, Reference][] = [];
  const visit = (path: string[], value: unknown) => {
    if (typeof value === "number" || typeof value === "string") {
      const reference = new Reference(variable, path);
      found.push([`${k.type}.${path.join(".")}=${value}`, reference]);
      if (path.length > 2) found.push([`${k.type}.${[path[0], "*", ...path.slice(2)].join(".")}=${value}`, reference]);
    } else if (value !== null && typeof value === "object" && !Array.isArray(value) && path.length < 3) {
      for (const [key, inner] of Object.entries(value)) visit([...path, key], inner);
    }
  };
  for (const [output, value] of Object.entries(outputs)) visit([output], value);
  return found;
}

/** The values at a dotted path of inputs (`*` any entry of a map; into lists, as replaceAt goes). */
function valuesAt(value: unknown, path: string[]): unknown[] {
  if (path.length === 0) return [value];
  if (Array.isArray(value)) return value.flatMap((v) => valuesAt(v, path));
  if (value === null || typeof value !== "object") return [];
  const record = value as Record<string, unknown>;
  return path[0] === "*" ? Object.values(record).flatMap((v) => valuesAt(v, path.slice(1))) : valuesAt(record[path[0]], path.slice(1));
}

/**
 * The roots (sections) in kind order, except that a section goes after the sections holding what its inputs refer
 * to (a PullZone whose origin is a ContainerApp's endpoint goes after the app, though pull zones come first): a
 * reference can only be to a resource written before. Where two sections refer to each other, kind order stands.
 */
function dependencyOrder(roots: Found[], found: Found[]): Found[] {
  const provides = new Map<Found, Set<string>>(roots.map((r) => [r, new Set()]));
  const needs = new Map<Found, Set<string>>(roots.map((r) => [r, new Set()]));
  for (const f of found) {
    if (f.leftOut) continue;
    const described = describe(f);
    if (!described) continue;
    const root = rootOf(f);
    for (const [key] of referableOutputs(f.kind, "", described.outputs)) provides.get(root)?.add(key);
    for (const [path, targets] of Object.entries(f.kind.references ?? {})) {
      for (const value of valuesAt(described.inputs, path.split("."))) {
        if (typeof value === "number" || typeof value === "string") for (const [type, output] of targets) needs.get(root)?.add(`${type}.${output}=${value}`);
      }
    }
  }
  const waitsFor = (r: Found, others: Found[]) => others.some((o) => o !== r && [...needs.get(r)!].some((key) => provides.get(o)!.has(key)));
  const left = [...roots];
  const ordered: Found[] = [];
  while (left.length > 0) {
    const next = left.find((r) => !waitsFor(r, left)) ?? left[0];
    ordered.push(next);
    left.splice(left.indexOf(next), 1);
  }
  return ordered;
}

/** Inputs that equal an output of a resource written before become references to it. */
function withReferences(inputs: Record<string, ProgramValue>, k: ExportKind, outputsSeen: Map<string, Reference>): Record<string, ProgramValue> {
  return Object.entries(k.references ?? {}).reduce(
    (result, [path, targets]) =>
      replaceAt(result, path, (value) => {
        if (typeof value !== "number" && typeof value !== "string") return undefined;
        for (const [type, output] of targets) {
          const reference = outputsSeen.get(`${type}.${output}=${value}`);
          if (reference) return reference;
        }
        return k.onlyAsReference?.includes(path) ? DROP : undefined;
      }),
    inputs,
  );
}

function isMarker(v: object): boolean {
  return v instanceof Reference || v instanceof FromConfig || v instanceof FileText || v instanceof EnumMember;
}

/** Enum inputs (a dotted path for nested ones) by their member's name (`bunnynet.ShieldPlanType.Advanced`). */
function withEnumNames(inputs: Record<string, ProgramValue>, k: ExportKind): Record<string, ProgramValue> {
  return Object.entries(k.enums ?? {}).reduce(
    (result, [path, [enumName, values]]) =>
      replaceAt(result, path, (value) => {
        const member = Object.keys(values).find((m) => values[m] === value);
        return member === undefined ? undefined : new EnumMember(enumName, member);
      }),
    inputs,
  );
}

/** The report: what was written, what to set in config, what adopting writes, what was left out and why. */
export function reportText(exported: ExportedAccount, project: string): string {
  const total = exported.sections.reduce((n, s) => n + s.resources.length, 0);
  const lines = [`# bunnynet export: ${project}`, "", `${total} resources in ${exported.sections.length} sections (index.ts); import.json lists them for \`pulumi import --file\`.`, ""];
  if (exported.config.length > 0) {
    lines.push("## Config to set before `pulumi up`", "");
    for (const c of exported.config) lines.push(`- \`pulumi config set ${c.secret ? "--secret " : ""}${c.key} <value>\`: ${c.what}`);
    lines.push("");
  }
  if (exported.notes.length > 0) {
    lines.push("## What adopting writes", "");
    for (const n of exported.notes) lines.push(`- ${n}`);
    lines.push("");
  }
  lines.push("## Skipped", "");
  for (const s of exported.skipped) lines.push(`- ${s.what}: ${s.reason}`);
  for (const n of NOT_EXPORTED) lines.push(`- ${n}`);
  return lines.join("\n") + "\n";
}

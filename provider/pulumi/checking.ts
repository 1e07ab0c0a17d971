import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { InputShape, ResourceDefinition } from "./definition";
import { copyData } from "../http/dataCopies";
import { NO_STAND_IN, schemaAt, standInFor } from "./standIns";
import { type Plain, UNKNOWN, plain, withoutProvider } from "./wire";

/**
 * Check: the inputs validated and normalised without any API call, around values not known yet (preview), with
 * failures that name the property and never make the engine print a secret.
 */

type Path = (string | number)[];

/**
 * Validates inputs without any API call. Values not known yet (preview), at any depth, are not judged and stay
 * unknown; everything else is normalised (defaults, conversions) exactly as in a deployment, so a preview of an
 * unchanged program shows no change. Failures name the property path.
 */
export function checkInputs(schema: z.ZodObject<z.ZodRawShape>, news: Plain): pulumi.dynamic.CheckResult {
  const props = withoutProvider(news);
  // Each unknown gets a stand-in its own schema accepts, so the rest is parsed and normalised; the unknown goes back
  // afterwards. Where no stand-in is found (or the property itself is unknown), the property is left out of the
  // schema and passes through as it came.
  const standIns: Path[] = [];
  const passThrough = new Set<string>();
  const unknowns = unknownPaths(props);
  // Only a probe with stand-ins put in or properties taken out needs its own copy (at preview); the parse does not
  // change what it reads.
  const probe = unknowns.length > 0 ? copyData(props) : props;
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

/** The whole of check: the schema, then the definition's rules across properties (`complete`) on what it accepted. */
export async function checkResource<Shape extends InputShape, Obj, O extends object>(def: ResourceDefinition<Shape, Obj, O>, news: Plain): Promise<pulumi.dynamic.CheckResult> {
  const checked = checkInputs(def.inputs, news);
  if (!def.complete || (checked.failures ?? []).length > 0) return engineSafeFailures(def, news, checked);
  const inputs = checked.inputs as Plain;
  const completed = await def.complete(inputs, new Set(Object.keys(inputs).filter((k) => containsUnknown(inputs[k]))));
  return engineSafeFailures(def, news, { inputs: plain(completed.inputs), failures: completed.failures });
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
 * naming it in the reason: the engine then prints only the reason. A nested path is no key of the inputs, so the
 * engine would print `value {<nil>}` beside it: it too is named in the reason only.
 */
function engineSafeFailures<Shape extends InputShape, Obj, O extends object>(
  def: ResourceDefinition<Shape, Obj, O>,
  news: Plain,
  checked: pulumi.dynamic.CheckResult,
): pulumi.dynamic.CheckResult {
  const mayHoldSecret = (property: string) =>
    news[property] !== undefined && news[property] !== null && (def.secretInputs?.includes(property) === true || !(property in def.inputs.shape));
  const failures = (checked.failures ?? []).map((f) => (f.property.includes(".") || mayHoldSecret(f.property) ? { property: "", reason: `${f.property}: ${f.reason}` } : f));
  return { inputs: checked.inputs, failures };
}

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

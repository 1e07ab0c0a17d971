import { z } from "zod";
import { pathSegmentProblem } from "../http/pathSegments";

/**
 * Conventions for every schema module:
 * - Request schemas are strict where the API refuses unknown properties, and carry the API's enums and ranges,
 *   so bad input is refused before anything is sent.
 * - Response schemas are tolerant: unknown fields are ignored and enum-typed fields accept any number or string,
 *   so a newer API never breaks a read.
 */

/** A numeric enum usable by name: `enumByName({ Block: 1 })` gives both the constant object and a zod schema. */
export function numericEnum<const T extends Record<string, number>>(values: T) {
  const allowed = new Set<number>(Object.values(values));
  const names = Object.keys(values).join(", ");
  const message = `must be one of ${names} (${[...allowed].join(", ")})`;
  // One transform rather than a union, so an unknown name gets this message (not zod's "Invalid input"),
  // and only own keys count as names ("constructor" is not one).
  const schema = z.union([z.number(), z.string()]).transform((v, ctx) => {
    const n = typeof v === "number" ? v : Object.hasOwn(values, v) ? values[v] : undefined;
    if (n === undefined || !allowed.has(n)) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return n as T[keyof T];
  });
  return { values, schema: schema as unknown as z.ZodType<T[keyof T], T[keyof T] | keyof T | number | string> };
}

/** An integer id (pull zone, shield zone, script, library …). */
export const positiveId = z.number().int().positive();

/** An id that may come as a number or a numeric string (Pulumi inputs are often strings). */
export const idFromString = z.union([positiveId, z.string().regex(/^\d+$/).transform(Number).pipe(positiveId)], {
  error: "must be a positive integer (a number or a string of digits)",
});

/**
 * An opaque string id sent as one URL path segment (a container app, a video): refused when the URL parser would
 * resolve it away (`.`, `..`), when it cannot be encoded (a lone surrogate), or when it is longer than any id.
 */
export const pathSegmentId = z.string().superRefine((v, ctx) => {
  const problem = pathSegmentProblem(v);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/**
 * Answer fields the API may send as null or leave out, read as a fallback (false, "", 0, []): `withFallback` on
 * the field, `answerObject` around the object that holds it.
 *
 * Not `.nullish().transform((v) => v ?? fallback)` per field: every zod transform adds a property to the parse's
 * payload (`addIssue`, classic ZodTransform), so payloads come in many shapes and every parse in the process gets
 * slower (V8's inline caches turn megamorphic). In the plugin a DNS zone of 30 records cost 0.3–1.4 ms of CPU per read
 * that way, about 4× a single pass per object (docs/performance.md). So the field is only `.nullish()` at run time,
 * and `answerObject` fills the fallbacks in one pass (a zod `overwrite` check, which adds nothing to the payload).
 * The field's declared type is the transform's, so every inferred type (types.generated.ts) is what it was; a field
 * with a fallback in an object not made by `answerObject` would keep its null, so tests/unit/schemas/answerFallbacks.test.ts
 * checks every schema of provider/schemas for that.
 */
type WithFallback<T extends z.ZodType> = z.ZodPipe<z.ZodOptional<z.ZodNullable<T>>, z.ZodTransform<z.output<T>, z.output<T> | null | undefined>>;

/** The fallback of each field made by `withFallback` (a function: an array is new for each answer). */
const fallbackOf = new WeakMap<z.core.$ZodType, () => unknown>();
/** The objects made by `answerObject`. */
const fillingObjects = new WeakSet<z.core.$ZodType>();

/** A field read as `fallback()` when the API sends null or leaves it out (inside an `answerObject`). */
export function withFallback<T extends z.ZodType>(schema: T, fallback: () => z.output<T>): WithFallback<T> {
  const field = schema.nullish();
  fallbackOf.set(field, fallback);
  return field as unknown as WithFallback<T>;
}

/** Whether a field was made by `withFallback`. */
export function hasFallback(field: z.core.$ZodType): boolean {
  return fallbackOf.has(field);
}

/** Whether an object schema fills the fallbacks of its fields (made by `answerObject`). */
export function fillsFallbacks(object: z.core.$ZodType): boolean {
  return fillingObjects.has(object);
}

/**
 * `z.object(shape)` (unknown fields dropped) that reads each field made by `withFallback` as its fallback when it is
 * null or left out, with the keys in the shape's order, as a transform per field gave them.
 */
export function answerObject<S extends z.ZodRawShape>(shape: S): z.ZodObject<S, z.core.$strip> {
  const keys = Object.keys(shape);
  const fills = keys.flatMap((k) => {
    const fallback = fallbackOf.get(shape[k]);
    return fallback ? [[k, fallback] as const] : [];
  });
  const object = z.object(shape);
  if (fills.length === 0) return object;
  const filled = object.overwrite((value) => {
    const o = value as Record<string, unknown>;
    let added = false;
    for (const [k, fallback] of fills) {
      if (o[k] !== undefined && o[k] !== null) continue;
      added ||= !(k in o);
      o[k] = fallback();
    }
    if (!added) return value;
    // A key the answer left out was added last: put the keys back in the shape's order.
    const ordered: Record<string, unknown> = {};
    for (const k of keys) if (k in o) ordered[k] = o[k];
    return ordered as typeof value;
  });
  fillingObjects.add(filled);
  return filled;
}

/** A boolean the API may send as null or leave out: false then (inside an `answerObject`). */
export const nullishFlag = withFallback(z.boolean(), () => false);

/** A string the API may send as null or leave out: "" then (inside an `answerObject`). */
export const nullishText = withFallback(z.string(), () => "");

/** A number the API may send as null or leave out: 0 then (inside an `answerObject`). */
export const nullishNumber = withFallback(z.number(), () => 0);

/** A list of strings the API may send as null or leave out: [] then (inside an `answerObject`). */
export const nullishStrings = withFallback(z.array(z.string()), () => []);

/** A core listing's answer: an array (as the core document describes it), or a page `{Items, HasMoreItems}` (older answers). */
export function coreListSchema<T extends z.ZodType>(item: T) {
  return z.union([z.array(item), answerObject({ Items: withFallback(z.array(item), () => []), HasMoreItems: nullishFlag })]);
}

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

/** A boolean the API may send as null or leave out: false then. */
export const nullishFlag = z
  .boolean()
  .nullish()
  .transform((v) => v ?? false);

/** A string the API may send as null or leave out: "" then. */
export const nullishText = z
  .string()
  .nullish()
  .transform((v) => v ?? "");

/** A number the API may send as null or leave out: 0 then. */
export const nullishNumber = z
  .number()
  .nullish()
  .transform((v) => v ?? 0);

/** A list of strings the API may send as null or leave out: [] then. */
export const nullishStrings = z
  .array(z.string())
  .nullish()
  .transform((v) => v ?? []);

/** A core listing's answer: an array (as the core document describes it), or a page `{Items, HasMoreItems}` (older answers). */
export function coreListSchema<T extends z.ZodType>(item: T) {
  return z.union([z.array(item), z.object({ Items: z.array(item).nullish().transform((v) => v ?? []), HasMoreItems: nullishFlag })]);
}

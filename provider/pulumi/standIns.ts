import type { z } from "zod";

/**
 * Stand-ins for values not known yet: check parses a preview's inputs with each unknown replaced by a value its
 * own schema accepts, so everything known is still validated and normalised. Finding that schema means walking
 * zod's definitions along the property path; zod exposes them only as `_zod.def`, so the walk is kept to this file.
 */

/* zod's definitions, as far as walking a schema along a property path needs them. */
interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

/** The schema behind wrappers (optional, default, a transform's input...). */
function unwrapped(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    if (def.innerType) s = def.innerType;
    else if (def.type === "pipe" && def.in) s = def.in;
    else return s;
  }
}

/** The schema of the value at `path`, if the schema's structure reaches it. */
export function schemaAt(schema: z.ZodType, path: readonly (string | number)[]): z.ZodType | undefined {
  if (path.length === 0) return schema;
  const [key, ...rest] = path;
  const def = defOf(unwrapped(schema));
  if (def.type === "object" && def.shape && typeof key === "string" && key in def.shape) return schemaAt(def.shape[key], rest);
  if (def.type === "array" && def.element && typeof key === "number") return schemaAt(def.element, rest);
  if (def.type === "record" && def.valueType) return schemaAt(def.valueType, rest);
  if (def.type === "union") for (const option of def.options ?? []) {
    const found = schemaAt(option, path);
    if (found) return found;
  }
  return undefined;
}

export const NO_STAND_IN = Symbol("no stand-in");
const GENERIC_STAND_INS: unknown[] = [1, 0, "a", "a.example", "https://a.example/a.png", true, false, {}, []];

/** A value the schema accepts (an enum's or literal's own value first). */
export function standInFor(schema: z.ZodType): unknown {
  const def = defOf(unwrapped(schema));
  const own = def.entries ? Object.values(def.entries) : (def.values ?? []);
  return [...own, ...GENERIC_STAND_INS].find((candidate) => schema.safeParse(candidate).success) ?? NO_STAND_IN;
}

/**
 * Copies of data made of plain objects, arrays and primitives (what an answer's JSON parses into, what the engine's
 * properties are), walked directly instead of through a serialisation: `structuredClone` and a JSON round trip
 * serialise the whole value first, several times the cost for such data, on every read a caller gets and every
 * result the provider hands the engine. Anything else inside (a class instance, a Date, an object with `toJSON` or
 * an own `__proto__` key) is handed to the original for that part, so each gives exactly what the original gives.
 */

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function isPlainArray(value: object): value is unknown[] {
  return Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype;
}

/** What `structuredClone(value)` gives, for data without holes, shared or cyclic parts (a parsed answer has none). */
export function copyData<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (isPlainArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyData(value[i]);
    return out as T;
  }
  if (!isPlainObject(value) || Object.hasOwn(value, "__proto__")) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copyData(value[key]);
  return out as T;
}

/** Left out by JSON (an object's undefined, function or symbol value; null in an array). */
const OMITTED = Symbol("omitted");

/** What `JSON.parse(JSON.stringify(value))` gives (undefined values dropped, non-finite numbers null, -0 as 0), for a value JSON can write. */
export function jsonCopy<T>(value: T): T {
  const copy = jsonValue(value);
  return (copy === OMITTED ? undefined : copy) as T;
}

function jsonValue(value: unknown): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value + 0 : null;
    case "undefined":
    case "function":
    case "symbol":
      return OMITTED;
    case "bigint":
      return viaJson(value);
  }
  if (value === null) return null;
  const object = value as object;
  if (typeof (object as { toJSON?: unknown }).toJSON === "function") return viaJson(object);
  if (isPlainArray(object)) {
    const out = new Array<unknown>(object.length);
    for (let i = 0; i < object.length; i++) {
      const item = jsonValue(object[i]);
      out[i] = item === OMITTED ? null : item;
    }
    return out;
  }
  if (!isPlainObject(object) || Object.hasOwn(object, "__proto__")) return viaJson(object);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    const item = jsonValue(object[key]);
    if (item !== OMITTED) out[key] = item;
  }
  return out;
}

/** The round trip itself, for what is not plain data (it throws where JSON.stringify throws: a BigInt). */
function viaJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? OMITTED : JSON.parse(text);
}

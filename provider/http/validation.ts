/**
 * Schema validation at the HTTP layer's edges: a request's input before it is sent (InvalidRequestError naming the
 * field) and a 2xx answer's body as it arrives (UnexpectedResponseError). The schemas themselves are in
 * provider/schemas; here they are typed only structurally (`Schema`).
 */
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./bounds";
import { InvalidRequestError, UnexpectedResponseError } from "./errors";

/**
 * A schema as the transport uses it: only `safeParse`, typed structurally, so that the package's public
 * declarations do not depend on the schema library's (which need esModuleInterop). Every schema of
 * provider/schemas is one.
 */
export interface Schema<T = unknown> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/** What the transport reads of the issues of a refused value. */
export interface SchemaIssue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  /** The unknown properties of an `unrecognized_keys` issue. */
  keys?: readonly string[];
}

/** Turns schema issues into `{field, message}` with a dotted field path. */
export function schemaIssues(error: { issues: readonly SchemaIssue[] }, prefix = ""): { field: string; message: string }[] {
  const name = (path: readonly PropertyKey[]) => [prefix, path.map(String).join(".")].filter(Boolean).join(".") || "(body)";
  return error.issues.flatMap((i) =>
    // An unknown property is named itself (`ruleConfiguration.colour`), not only the object that holds it.
    i.code === "unrecognized_keys" ? (i.keys ?? []).map((k) => ({ field: name([...i.path, k]), message: "unknown property" })) : [{ field: name(i.path), message: i.message }],
  );
}

/** Throws InvalidRequestError naming the field when `value` does not fit `schema`; returns the parsed value. */
export function validateRequest<T>(schema: Schema<T>, value: unknown, method: string, path: string, prefix = ""): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidRequestError(method, path, schemaIssues(result.error, prefix));
  return result.data;
}

/**
 * Parses a 2xx answer's text as JSON (empty text is `undefined`) and checks it against `schema`; extra fields are
 * the schema's business (tolerated by the response schemas). Throws UnexpectedResponseError naming the first field at
 * fault, or saying the answer nests deeper than MAX_JSON_DEPTH (every API surface's answers come through here).
 */
export function parseResponseBody<T>(schema: Schema<T>, text: string, answer: { method: string; path: string; status: number }): T {
  let json: unknown = undefined;
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new UnexpectedResponseError({ ...answer, serverMessage: `the answer nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels; no answer of this API does` });
  }
  if (text.trim()) {
    try {
      json = JSON.parse(text);
    } catch {
      throw new UnexpectedResponseError({ ...answer, serverMessage: "answer is not JSON" });
    }
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw unexpectedAnswer(parsed.error, answer);
  return parsed.data;
}

/** The error for a 2xx answer that does not fit its schema: names the first field at fault. */
export function unexpectedAnswer(error: { issues: readonly SchemaIssue[] }, answer: { method: string; path: string; status: number }): UnexpectedResponseError {
  const issue = schemaIssues(error)[0];
  return new UnexpectedResponseError({ ...answer, field: issue?.field, serverMessage: `unexpected answer: ${issue?.message}` });
}

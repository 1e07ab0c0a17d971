import { z } from "zod";
import { AlreadyExistsError, type BunnyError, type BunnyErrorDetails, ForbiddenError, NotFoundError, UnexpectedResponseError, ValidationError } from "../http/errors";
import { redactSecrets } from "../http/redaction";
import { isDuplicateErrorKey } from "../http/errorKeys";
import { unexpectedAnswer } from "../http/validation";
import { AcceptedResultSchema, ShieldEnvelopeErrorSchema } from "../schemas/shield";

/** Shield's answers are read by `shieldAnswer`; one schema instance, so identical reads are recognised and shared (Transport). */
export const ANY_ANSWER = z.unknown();

/**
 * Shield answers many failures with a 2xx (often 202) and the envelope `{data: null, error: {success: false,
 * errorKey, message}}`. The key's first part says what happened (`not_found_or_unauthorised_access.shieldzone`,
 * `plan_limit_restriction.rate_limit`, `invalid_plan_type.…`, `validation_error.…`); this maps it onto the error tree, keeping the key in
 * the message. Shield cannot tell "not found" from "not yours", and says so in one key: both read as gone.
 */
function errorForShieldKey(errorKey: string, details: BunnyErrorDetails): BunnyError {
  const family = errorKey.split(".")[0].toLowerCase();
  if (family.startsWith("not_found")) return new NotFoundError(details);
  if (/unauthori[sz]ed|forbidden|plan/.test(family)) return new ForbiddenError(details);
  if (isDuplicateErrorKey(errorKey)) return new AlreadyExistsError(details);
  if (/valid|limit|bad_request/.test(family)) return new ValidationError(details);
  return new UnexpectedResponseError(details);
}

/**
 * Reads a Shield 2xx answer in every form it comes in: the object itself, the object wrapped as `{data, error}`,
 * an error envelope (thrown, mapped by its key), or a genuine accept (AcceptedResult, empty, `{data: null}`).
 */
export function shieldAnswer<S extends z.ZodType>(method: string, path: string, status: number, body: unknown, schema: S): { kind: "value"; value: z.output<S> } | { kind: "accepted" } {
  const envelope = typeof body === "object" && body !== null && ("data" in body || "error" in body) ? (body as { data?: unknown; error?: unknown }) : undefined;
  if (envelope && typeof envelope.error === "object" && envelope.error !== null) {
    const e = ShieldEnvelopeErrorSchema.safeParse(envelope.error);
    const { errorKey, message } = e.success ? e.data : { errorKey: undefined, message: undefined };
    // What Shield said is redacted like any error body (errorForStatus), its key too: a key echoed in either never
    // reaches the error (the error's class is read from the key as sent).
    const details = { method, path, status, errorKey: errorKey ? redactSecrets(errorKey) : undefined, serverMessage: message ? redactSecrets(message) : "Shield answered with an error envelope" };
    throw errorForShieldKey(errorKey ?? "", details);
  }
  const direct = schema.safeParse(body);
  if (direct.success) return { kind: "value", value: direct.data };
  if (envelope) {
    if (envelope.data === null || envelope.data === undefined) return { kind: "accepted" };
    const inner = schema.safeParse(envelope.data);
    if (inner.success) return { kind: "value", value: inner.data };
  }
  if (body === null || body === undefined || (status === 202 && AcceptedResultSchema.safeParse(body).success)) return { kind: "accepted" };
  throw unexpectedAnswer(direct.error, { method, path, status });
}

/**
 * Runs a Shield delete: true when it deleted, false when the object was already gone (404, or an envelope saying not
 * found), which also covers a retry whose first attempt deleted it but lost the answer.
 */
export async function falseWhenGone(remove: () => Promise<void>): Promise<boolean> {
  try {
    await remove();
    return true;
  } catch (e) {
    if (e instanceof NotFoundError) return false;
    throw e;
  }
}

/**
 * Which refusals mean "an object with this identity already exists" (AlreadyExistsError, from which the resource
 * framework adopts: provider/pulumi/resource.ts), decided by the error key the API sends rather than by its prose.
 *
 * Where the keys come from. Core and Compute (edge scripts) refuse with `{ErrorKey, Field, Message}` (ApiErrorData
 * in core-api-v1.0.0.json and edge-scripting-api-v1.0.0.json, ../shared/openapi; BUNNY-API.md); Shield with
 * `{error: {errorKey, message}}` or its 2xx envelope (client/shield.ts). The documents type the key as a free string
 * and list no values, so each known key is cited from a real answer:
 * - `pullzone.hostname_already_registered`: 400, Field `Hostname`, Message "The hostname is already registered.", from
 *   `POST /pullzone/{id}/addHostname` of a hostname that is on any pull zone. Quoted from the real API in
 *   simplesurance/terraform-provider-bunny pull request #44 (comment of 2022-01-28) and handled by that name in
 *   chobbledotcom/tickets pull request #531; BUNNY-API.md records the same 400 ("e.g. already registered").
 * bunny.net's own Terraform provider (BunnyWay/terraform-provider-bunnynet) names no duplicate key: it looks a
 * hostname up on the zone before adding it (internal/api/pullzone_hostname.go) and compares Shield keys only with
 * `invalid_plan_type.bot_detection` and `not_available.access_list` (internal/api/pullzone_shield.go).
 *
 * Keys name what happened in snake_case words (`area.reason`; Shield also `reason.area`), so a key holding one of the
 * words `already`, `exists`, `duplicate` or `taken` is a duplicate too. That covers keys no real answer has shown
 * yet, such as the emulator's `edgescript.variable_name_taken` and `edgescript.secret_name_taken` (the Edge Scripting
 * document lists no 400 for `variables/add`, so the real key for a variable name in use is not known).
 *
 * Fallback: the message decides (DUPLICATE_MESSAGE) only when the key says nothing: there is none (an empty 400,
 * Stream's `{message}`, a Magic Containers problem without `type`), or it names only a class of failure
 * (`validation_error`, `pullzone.validation`, Shield's `rate_limit.validation`, logging's `invalid_request`, a
 * problem-details `type` URI: Magic Containers documents one 400 as "Invalid input or endpoint name already exists.").
 * Any other key names another reason and is believed: e.g. `edgescript.name_in_use` (the name belongs to a secret,
 * not to an object of the kind created) is a plain ValidationError, whatever its message says.
 */

/** `POST /pullzone/{id}/addHostname`: the hostname is registered on a pull zone already (this one or another). */
export const HOSTNAME_ALREADY_REGISTERED = "pullzone.hostname_already_registered";

/** The keys real answers have shown to mean "already exists" (see the header for each one's source). */
export const DUPLICATE_ERROR_KEYS: ReadonlySet<string> = new Set([HOSTNAME_ALREADY_REGISTERED]);

/** A word of a key (between `.` and `_`) that says the object exists already. */
const DUPLICATE_KEY_WORD = /(?:^|[._])(?:already|exists|duplicate|taken)(?:[._]|$)/i;

/** Keys that name only a class of failure, not what happened. */
const CLASS_ONLY_KEY = /^(?:[a-z_]+\.)?(?:validation|validation_error|invalid_request|bad_request)$/i;

/** The fallback for refusals whose key says nothing: the server's message. */
const DUPLICATE_MESSAGE = /already|exists|duplicate|taken|registered/i;

/** Whether the key itself means "already exists". */
export function isDuplicateErrorKey(errorKey: string): boolean {
  return DUPLICATE_ERROR_KEYS.has(errorKey) || DUPLICATE_KEY_WORD.test(errorKey);
}

/** A class-only key or a problem-details `type` URI (`https://…`, `about:blank`): no reason named. */
function keySaysNothing(errorKey: string): boolean {
  return CLASS_ONLY_KEY.test(errorKey) || errorKey.includes(":");
}

/** Whether a 400/422 refusal means "already exists": by its key where the key names a reason, else by its message. */
export function refusesAsDuplicate(errorKey: string | undefined, message: string | undefined): boolean {
  if (errorKey !== undefined && !keySaysNothing(errorKey)) return isDuplicateErrorKey(errorKey);
  return DUPLICATE_MESSAGE.test(message ?? "");
}

import { type Plain, Secret, UNKNOWN_VALUE } from "./wire";

/**
 * How the engine prints a resource's check failures, so that a test sees the text a user sees (and a leak shows).
 *
 * Check failures are printed by the engine with the program's value of the failure's property, secret or not
 * (pkg/resource/deploy/step_generator.go, issueCheckFailures: `inputs[failure.Property]`;
 * sdk/go/common/diag/errors.go, GetResourcePropertyInvalidValueError), the value as Go's `%v` prints it.
 */

/** A failure Check answered: the property it is about (may be empty) and the reason. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/**
 * A failure with the property it names: `property`, or, where the provider leaves `property` empty so that the engine
 * cannot print a value that may be secret, the property the reason starts with (`defaultValue: too long`; a record key
 * may hold spaces: `captions.English please: Invalid key in record`).
 */
export function named(f: CheckFailure): CheckFailure {
  const m = f.property ? null : /^([^:]+): ([\s\S]*)$/.exec(f.reason);
  return m ? { property: m[1], reason: m[2] } : f;
}

/** Check failures, as the engine prints them (one line each), after which the step does not run. */
export class CheckFailedError extends Error {
  constructor(
    readonly urn: string,
    readonly failures: CheckFailure[],
    readonly lines: string[],
  ) {
    super(lines.join("\n"));
    this.name = "CheckFailedError";
  }
}

/** The engine's message for a check failure: `%v resource '%v's property '%v' value %v has a problem: %v`. */
export function engineCheckMessage(typeToken: string, name: string, failure: CheckFailure, programInputs: Plain): string {
  if (!failure.property) return `${typeToken} resource '${name}' has a problem: ${failure.reason}`;
  return `${typeToken} resource '${name}'s property '${failure.property}' value {${goValue(programInputs[failure.property])}} has a problem: ${failure.reason}`;
}

/** A property value as Go's `%v` prints the engine's PropertyValue.V (a secret as its struct, value included). */
function goValue(value: unknown): string {
  if (value instanceof Secret) return `&{{${goValue(value.value)}}}`;
  if (value === undefined || value === null) return "<nil>";
  if (value === UNKNOWN_VALUE) return "output<string>{}";
  if (Array.isArray(value)) return `[${value.map((v) => `{${goValue(v)}}`).join(" ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Plain).sort(([a], [b]) => a.localeCompare(b));
    return `map[${entries.map(([k, v]) => `${k}:{${goValue(v)}}`).join(" ")}]`;
  }
  return String(value);
}

/**
 * A harness command that failed, as `pulumi up` ends when a step fails: every failure (`errors`; a check failure is a
 * CheckFailedError), and the resources the command left unfinished (failed, cut short, or never started). The state
 * keeps only what the provider confirmed before the failure, as the engine's does.
 */
export class CommandFailedError extends Error {
  constructor(
    readonly command: "preview" | "up" | "refresh" | "destroy",
    /** Every failure, in the order they happened. Not an AggregateError: Pulumi's template tsconfig (ES2020) lacks it. */
    readonly errors: unknown[],
    readonly unfinished: string[],
  ) {
    // Each reason once: a host that died fails every call that was waiting with the same words.
    const reasons = [...new Set(errors.map((f) => (f instanceof Error ? f.message : String(f))))];
    const left = unfinished.length > 0 ? `\nleft unfinished: ${unfinished.join(", ")}` : "";
    super(`${command} failed: ${reasons.join("\n")}${left}`);
    this.name = "CommandFailedError";
  }
}

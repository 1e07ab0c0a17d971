/**
 * Domain names that can never resolve in public DNS, so no DNS record can point them at bunny.net and no public
 * certificate authority can validate them: RFC 6761 §6 (`test`, `localhost`, `invalid`, `example`), RFC 6762
 * (`local`, multicast DNS), RFC 8375 (`home.arpa`), RFC 9476 (`alt`) and ICANN's reservation of `internal` for
 * private use (board resolution 2024.07.29.06).
 */
const NEVER_PUBLIC = ["internal", "local", "test", "invalid", "localhost", "example", "home.arpa", "alt"];

/** The special-use suffix the hostname ends in (`".internal"`), or undefined for a name that can be public. */
export function neverPublicSuffix(hostname: string): string | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  const suffix = NEVER_PUBLIC.find((s) => name === s || name.endsWith(`.${s}`));
  return suffix === undefined ? undefined : `.${suffix}`;
}

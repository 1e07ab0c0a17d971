import type { EmulatorContext } from "../../context";

/**
 * The certificate authority's rate limit behind `GET /pullzone/loadFreeCertificate`: bunny.net's free certificates
 * come from Let's Encrypt over ACME, which refuses a new certificate once too many were issued for the same
 * registered domain in a week, and bunny.net passes the ACME problem on in its 400's Message.
 *
 * Sources: BUNNY-API.md ("ACME `rateLimited` (too many certificates, 50 per 168 h)"); bunny.net's Terraform provider
 * matches the real Message with `loadFreeCertificate failed: .* urn:ietf:params:acme:error:rateLimited: too many
 * certificates` (BunnyWay/terraform-provider-bunnynet internal/provider/resource_pullzone_hostname.go, Create, the
 * third of `possibleErrors`; its api/pullzone_hostname.go prefixes the server's Message with
 * "loadFreeCertificate failed: "); `urn:ietf:params:acme:error:rateLimited` is the ACME problem type (RFC 8555
 * §6.7), and the rest of the wording is Let's Encrypt's ("too many certificates (50) already issued for
 * "example.com" in the last 168h0m0s, retry after <UTC time>").
 *
 * Decided (not published): the registered domain is the hostname's last two labels (no public-suffix list); the
 * error key is `pullzone.certificate_rate_limited`; certificates issued elsewhere for a domain (Let's Encrypt counts
 * them all) are recorded with `POST /_emulator/certificates-issued {domain, count}`, and fixture
 * `certificateRateLimitedDomain` is seeded at the limit.
 */

/** Let's Encrypt's "new certificates per registered domain": 50 per 168 hours. */
export const CERTIFICATES_PER_DOMAIN = 50;
export const CERTIFICATE_WINDOW_MS = 168 * 60 * 60 * 1000;
export const CERTIFICATE_RATE_LIMITED_KEY = "pullzone.certificate_rate_limited";

const ISSUED_PREFIX = "acmeIssued:";

/** The hostname's registered domain, as the limit counts it. */
export function registeredDomain(hostname: string): string {
  return hostname.toLowerCase().split(".").slice(-2).join(".");
}

/** The issue times of the domain's certificates still inside the window, oldest first. */
function issuedInWindow(ctx: EmulatorContext, domain: string, now: number): number[] {
  return (ctx.store.getMeta<number[]>(ISSUED_PREFIX + domain) ?? []).filter((t) => t > now - CERTIFICATE_WINDOW_MS).sort((a, b) => a - b);
}

/** Records `count` certificates issued for the hostname's domain at `now`. */
export function recordIssued(ctx: EmulatorContext, hostnameOrDomain: string, now: number, count = 1): void {
  const domain = registeredDomain(hostnameOrDomain);
  ctx.store.setMeta(ISSUED_PREFIX + domain, [...issuedInWindow(ctx, domain, now), ...Array.from({ length: count }, () => now)]);
}

/** The refusal's Message when the domain is at its limit, else undefined. */
export function rateLimitRefusal(ctx: EmulatorContext, hostname: string, now: number): string | undefined {
  const domain = registeredDomain(hostname);
  const issued = issuedInWindow(ctx, domain, now);
  if (issued.length < CERTIFICATES_PER_DOMAIN) return undefined;
  const retryAfter = new Date(issued[issued.length - CERTIFICATES_PER_DOMAIN] + CERTIFICATE_WINDOW_MS).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
  return (
    `Failed to issue the certificate: urn:ietf:params:acme:error:rateLimited: too many certificates (${CERTIFICATES_PER_DOMAIN}) ` +
    `already issued for "${domain}" in the last 168h0m0s, retry after ${retryAfter}`
  );
}

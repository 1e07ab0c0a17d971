import { setTimeout as sleep } from "node:timers/promises";
import { ValidationError } from "../http/errors";
import type { BunnyClient } from "../client";
import {
  type CertificateDetails,
  certificateKind,
  describeCertificate,
  installedCertificate,
  parseCertificate,
} from "../schemas/certificates";
import type { Hostname } from "../types.generated";
import { neverPublicSuffix } from "./specialUseNames";

/**
 * A pull-zone hostname's TLS, as the `tls` and `forceSsl` inputs of PullZoneHostname describe it: the input's
 * forms, what the API shows in those terms, and the calls that bring a hostname from what it has to what is asked
 * (force-SSL off first, then the certificate, waiting for a free one while DNS does not point here yet, then force-SSL on).
 */

/** The `tls` input: `"none"`, `"free"` (issued by bunny.net), or a custom certificate with its key as PEM text. */
export type TlsInput = "none" | "free" | { certificate: string; privateKey: string };

/** What the API shows of the hostname's certificate, in terms of the `tls` input. */
export function observedTls(hostname: Hostname, requested: TlsInput): TlsInput | "custom" {
  switch (certificateKind(hostname)) {
    case "none":
      return "none";
    case "free":
      return "free";
    // bunny.net's own certificate on a system hostname: what the program asked for, unless that is a custom one.
    case "bunny.net":
      return typeof requested === "object" ? "none" : requested;
    case "custom": {
      if (typeof requested !== "object") return "custom";
      const installed = installedCertificate(hostname);
      const wanted = parseCertificate(requested.certificate);
      // A certificate replaced outside Pulumi shows as its own PEM, so the next `up` installs the program's again.
      return installed && wanted && installed.fingerprint256 === wanted.fingerprint256 ? requested : { certificate: installed?.toString() ?? "", privateKey: requested.privateKey };
    }
  }
}

export function certificateOf(hostname: Hostname): CertificateDetails | undefined {
  const cert = installedCertificate(hostname);
  return cert ? describeCertificate(cert) : undefined;
}

/**
 * The certificate authority's refusal for too many certificates: bunny.net passes the ACME problem type
 * `urn:ietf:params:acme:error:rateLimited` (RFC 8555 §6.7) on in the Message of its 400; bunny.net's Terraform
 * provider matches it as `…urn:ietf:params:acme:error:rateLimited: too many certificates`
 * (BunnyWay/terraform-provider-bunnynet internal/provider/resource_pullzone_hostname.go, Create). Let's Encrypt
 * allows 50 per registered domain per 168 hours (BUNNY-API.md): retrying within minutes cannot succeed.
 */
const ACME_RATE_LIMITED = /urn:ietf:params:acme:error:rateLimited/i;

/** The certificate authority's "retry after <time>" in the refusal, if it gives one. */
const RETRY_AFTER = /retry after ([0-9-]+[ T][0-9:]+(?: ?UTC|Z)?)/i;

/** Why a rate-limited free certificate stops at once, and when to try again. */
function certificateRateLimited(hostname: string, e: ValidationError): Error {
  const retryAfter = RETRY_AFTER.exec(e.serverMessage ?? "")?.[1];
  const when = retryAfter ? `after ${retryAfter}` : "once the week's count for the domain has dropped (up to 7 days)";
  return new Error(
    `The free certificate for ${hostname} was not issued: the certificate authority (Let's Encrypt) has issued too many certificates ` +
      `for its domain this week (at most 50 per registered domain in 168 hours), so retrying now cannot succeed (${e.message}). ` +
      `Run again ${when}, or give the hostname a custom certificate (tls: { certificate, privateKey }).`,
    { cause: e },
  );
}

/** What to do when a free certificate was not issued: point DNS here, unless the name can never resolve publicly. */
function freeCertificateAdvice(hostname: string): string {
  const suffix = neverPublicSuffix(hostname);
  if (suffix === undefined) return `Point ${hostname}'s DNS at the pull zone (a CNAME to its b-cdn.net hostname), or raise certificateWaitSeconds, and run again.`;
  return (
    `${hostname} is under ${suffix}, a name reserved never to resolve in public DNS, so no certificate authority can issue a certificate for it. ` +
    `Use a public hostname, or give this one a certificate of your own (tls: { certificate, privateKey }).`
  );
}

/**
 * Loads a free certificate, retrying while bunny.net answers 400 (typically: the hostname's DNS does not point
 * at bunny.net yet) with delays from 0.5 s doubling up to 10 s, for at most `waitSeconds`. The certificate
 * authority's rate limit stops at once: it lasts days, not seconds.
 */
async function loadFreeCertificateWithin(client: BunnyClient, hostname: string, waitSeconds: number): Promise<void> {
  const deadline = Date.now() + waitSeconds * 1000;
  for (let attempt = 1, delay = 500; ; attempt++, delay = Math.min(delay * 2, 10_000)) {
    try {
      await client.pullZones.loadFreeCertificate(hostname);
      return;
    } catch (e) {
      if (e instanceof ValidationError && ACME_RATE_LIMITED.test(e.serverMessage ?? "")) throw certificateRateLimited(hostname, e);
      if (!(e instanceof ValidationError) || Date.now() + delay > deadline) {
        const why = e instanceof ValidationError ? `bunny.net could not issue it after ${attempt} attempt${attempt === 1 ? "" : "s"} in ${waitSeconds} s` : "the request failed";
        throw new Error(`The free certificate for ${hostname} was not issued: ${why} (${(e as Error).message}). ${freeCertificateAdvice(hostname)}`, { cause: e });
      }
      await sleep(delay);
    }
  }
}

/**
 * Brings the hostname's certificate and force-SSL from what it has to what `inputs` ask: force-SSL off first
 * when it must go, then the certificate, then force-SSL on (bunny.net forces SSL only with a certificate).
 */
/** What applyTls brings a hostname to. */
export interface TlsTarget {
  pullZoneId: number;
  hostname: string;
  tls: TlsInput;
  forceSsl: boolean;
  certificateWaitSeconds: number;
}

export async function applyTls(client: BunnyClient, inputs: TlsTarget, current: Hostname): Promise<void> {
  const { pullZoneId, hostname } = inputs;
  const have = observedTls(current, inputs.tls);
  const tlsChanges = JSON.stringify(have) !== JSON.stringify(inputs.tls);
  if (current.ForceSSL && (!inputs.forceSsl || tlsChanges)) await client.pullZones.setForceSsl(pullZoneId, hostname, false);
  if (tlsChanges) {
    if (inputs.tls === "none") {
      if (have !== "none") await client.pullZones.removeCertificate(pullZoneId, hostname);
    } else if (inputs.tls === "free") {
      if (have === "custom" || typeof have === "object") await client.pullZones.removeCertificate(pullZoneId, hostname);
      await loadFreeCertificateWithin(client, hostname, inputs.certificateWaitSeconds);
    } else {
      await client.pullZones.addCertificate(pullZoneId, hostname, inputs.tls.certificate, inputs.tls.privateKey);
    }
  }
  if (inputs.forceSsl && (!current.ForceSSL || tlsChanges)) await client.pullZones.setForceSsl(pullZoneId, hostname, true);
}


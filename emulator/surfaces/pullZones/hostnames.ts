import { X509Certificate, createPrivateKey } from "node:crypto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { type EmulatorContext, type EmulatorSurface, refusedForeignAdminKey } from "../../context";
import { coreError } from "../../errorShapes";
import { issueCertificate } from "../../certificates";
import { defineIndex } from "../../store";
import { PROVISION, type HostnameRecord, type PullZoneRecord, controlledByBunny, createPullZone, publicZone } from "./records";
import { pointsAtPullZone } from "./dnsPointing";
import { CERTIFICATE_RATE_LIMITED_KEY, CERTIFICATES_PER_DOMAIN, rateLimitRefusal, recordIssued } from "./certificateRateLimit";
import { firstUnknownProperty } from "../../unknownProperties";

/**
 * The custom hostnames of pull zones, their certificates and force-SSL.
 * Sources: core API OpenAPI document (PullZonePublic_AddHostname, _RemoveHostname, _LoadFreeCertificate,
 * _AddCertificate, _RemoveCertificate, _SetForceSSL; HostnameModel, AddCertificateRequestModel,
 * ForceSSLRequestModel, CertificateProvisionType); the Terraform provider's issues #7 (400 from
 * addHostname/loadFreeCertificate), #12 (TLS on the zone's own b-cdn.net hostname), #36 and #41 (a free
 * certificate that fails while DNS does not point at bunny.net yet).
 *
 * Where the documents are silent, the emulator decides:
 * - A free certificate is issued at once (a self-signed stand-in, 90 days, the hostname as its only SAN),
 *   except for a name in one of the account's DNS zones that no record there points at the pull zone (400
 *   `The domain … is not pointing to our servers.`, see dnsPointing.ts), and a hostname whose DNS "does not point here yet": `POST /_emulator/dns-pending
 *   {hostname, attempts}` makes its next N loads answer 400 `pullzone.certificate_dns_not_ready`
 *   (fixture `dnsPendingHostname`, seeded with `dnsPendingAttempts`); and a domain with too many certificates issued
 *   this week (400 with the ACME `rateLimited` problem in the Message, see certificateRateLimit.ts).
 * - A custom certificate must be base64 of PEM text, parse, match its key, cover the hostname and be
 *   within its validity; each failure is a 400 naming the field, and no message echoes what was sent.
 * - Force-SSL needs a certificate on the hostname; removing the certificate turns force-SSL off. A system or managed
 *   hostname (`controlledByBunny`, records.ts) has bunny.net's certificate (provision type Managed), may take a custom
 *   one (removing that brings bunny.net's back), and cannot be removed.
 * - `Certificate` and `CertificateKey` (base64) are in `GET /pullzone/{id}` only with
 *   `includeCertificate=true`, as documented; otherwise null.
 */

const DNS_PENDING_PREFIX = "dnsPending:";

/** The account's pull zones by their hostnames (lower case): a hostname is looked up without reading every zone. */
const HOSTNAME_INDEX = "hostname";
defineIndex<PullZoneRecord>("pullzone", HOSTNAME_INDEX, (zone) => (zone.Hostnames ?? []).map((h) => h.Value.toLowerCase()));

/** The seeded zones and the hostname whose DNS "does not point here yet". */
export const seedPullZones: EmulatorSurface["seed"] = (ctx) => {
  const main = createPullZone(ctx, "emulator-main");
  const suspended = createPullZone(ctx, "emulator-suspended", { Suspended: true, Enabled: false });
  const noLogging = createPullZone(ctx, "emulator-nologs", { EnableLogging: false });
  const dnsPendingHostname = "dns-pending.emulator.example";
  const dnsPendingAttempts = 3;
  ctx.store.setMeta(DNS_PENDING_PREFIX + dnsPendingHostname, dnsPendingAttempts);
  const certificateRateLimitedDomain = "certificate-limit.example";
  recordIssued(ctx, certificateRateLimitedDomain, Date.now(), CERTIFICATES_PER_DOMAIN);
  return { pullZoneId: main.Id, suspendedPullZoneId: suspended.Id, loggingDisabledPullZoneId: noLogging.Id, dnsPendingHostname, dnsPendingAttempts, certificateRateLimitedDomain };
};

/** The zone as `GET /pullzone/{id}` answers it: certificates and keys only with includeCertificate=true. */
export function zoneAnswer(zone: PullZoneRecord, includeCertificate: boolean): Record<string, unknown> {
  if (includeCertificate) return publicZone(zone);
  return publicZone({ ...zone, Hostnames: zone.Hostnames.map((h) => ({ ...h, Certificate: null, CertificateKey: null })) });
}

export function hostnameRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  // A suspended zone keeps its hostnames and may lose them (so cleanup works), but takes no new ones.
  app.post("/pullzone/:id/addHostname", async (req, reply) => {
    const zone = ctx.store.get<PullZoneRecord>("pullzone", (req.params as { id: string }).id);
    if (!zone) return coreError(reply, 404);
    const parsed = hostnameBody(ctx.strict, req.body);
    if ("error" in parsed) return coreError(reply, 400, parsed.error.key, parsed.error.field, parsed.error.message);
    const invalid = serverHostnameProblem(parsed.hostname);
    if (invalid) return coreError(reply, 400, "pullzone.hostname_invalid", "Hostname", `The hostname is not valid: ${invalid}`);
    if (zone.Suspended) return coreError(reply, 400, "pullzone.suspended", undefined, "The pull zone is suspended");
    const value = parsed.hostname.toLowerCase();
    const taken = ctx.store.idsByKey("pullzone", HOSTNAME_INDEX, value).length > 0;
    if (taken) return coreError(reply, 400, "pullzone.hostname_already_registered", "Hostname", "The hostname is already registered");
    zone.Hostnames.push({
      Id: ctx.store.nextId("hostname", 7001),
      Value: value,
      ForceSSL: false,
      IsSystemHostname: false,
      IsManagedHostname: false,
      HasCertificate: false,
      CertificateKeyType: 0,
      CertificateProvisionType: PROVISION.unknown,
      Certificate: null,
      CertificateKey: null,
    });
    ctx.store.put("pullzone", zone.Id, zone);
    return reply.code(204).send();
  });

  app.delete("/pullzone/:id/removeHostname", async (req, reply) => {
    const zone = ctx.store.get<PullZoneRecord>("pullzone", (req.params as { id: string }).id);
    if (!zone) return coreError(reply, 404);
    const parsed = hostnameBody(ctx.strict, req.body);
    if ("error" in parsed) return coreError(reply, 400, parsed.error.key, parsed.error.field, parsed.error.message);
    const value = parsed.hostname.toLowerCase();
    const index = zone.Hostnames.findIndex((h) => h.Value.toLowerCase() === value);
    if (index < 0) return coreError(reply, 400, "pullzone.hostname_not_found", "Hostname", "The hostname was not found on this pull zone");
    if (controlledByBunny(zone.Hostnames[index])) return coreError(reply, 400, "pullzone.hostname_system", "Hostname", "A system or managed hostname cannot be removed");
    zone.Hostnames.splice(index, 1);
    ctx.store.put("pullzone", zone.Id, zone);
    return reply.code(204).send();
  });

  // A GET that changes state: it issues (or renews) the certificate of a hostname anywhere in the account.
  app.get("/pullzone/loadFreeCertificate", async (req, reply) => {
    const hostname = (req.query as { hostname?: string }).hostname?.toLowerCase();
    if (!hostname) return coreError(reply, 400, "validation_error", "hostname", "The hostname query parameter is required");
    const found = findInAccount(ctx, hostname);
    if (!found) return coreError(reply, 404);
    const pending = ctx.store.getMeta<number>(DNS_PENDING_PREFIX + hostname) ?? 0;
    if (pending > 0) {
      ctx.store.setMeta(DNS_PENDING_PREFIX + hostname, pending - 1);
      return coreError(reply, 400, "pullzone.certificate_dns_not_ready", "hostname", `Failed configuring the certificate: the DNS records of ${hostname} do not point to bunny.net yet`);
    }
    // A system or managed hostname already has bunny.net's own certificate.
    if (controlledByBunny(found.hostname)) return reply.code(200).send();
    // A name in one of the account's DNS zones gets a certificate only once a record there points at the pull zone.
    if (pointsAtPullZone(ctx.store, hostname, found.zone) === false) {
      return coreError(reply, 400, "pullzone.certificate_dns_not_ready", "hostname", `The domain ${hostname} is not pointing to our servers.`);
    }
    const refusal = rateLimitRefusal(ctx, hostname, Date.now());
    if (refusal) return coreError(reply, 400, CERTIFICATE_RATE_LIMITED_KEY, "hostname", refusal);
    recordIssued(ctx, hostname, Date.now());
    const issued = await issueCertificate({ hostnames: [hostname], issuer: "Emulator Free Certificates" });
    // Read the zone again after the wait: other requests may have changed it meanwhile.
    const now = findInAccount(ctx, hostname);
    if (!now) return coreError(reply, 404);
    setCertificate(now.hostname, issued.certificatePem, issued.privateKeyPem, PROVISION.http01);
    ctx.store.put("pullzone", now.zone.Id, now.zone);
    return reply.code(200).send();
  });

  app.post("/pullzone/:id/addCertificate", async (req, reply) => {
    const zone = ctx.store.get<PullZoneRecord>("pullzone", (req.params as { id: string }).id);
    if (!zone) return coreError(reply, 404);
    const body = objectBody(ctx.strict, req.body, ["Hostname", "Certificate", "CertificateKey"], ["Hostname", "Certificate", "CertificateKey"]);
    if ("error" in body) return bodyError(reply, body.error);
    const hostname = zone.Hostnames.find((h) => h.Value === String(body.fields.Hostname).toLowerCase());
    if (!hostname) return coreError(reply, 400, "pullzone.hostname_not_found", "Hostname", "The hostname was not found on this pull zone");
    const checked = checkCertificate(String(body.fields.Certificate), String(body.fields.CertificateKey), hostname.Value);
    if ("error" in checked) return bodyError(reply, checked.error);
    setCertificate(hostname, checked.certificatePem, checked.privateKeyPem, PROVISION.custom);
    ctx.store.put("pullzone", zone.Id, zone);
    return reply.code(204).send();
  });

  app.delete("/pullzone/:id/removeCertificate", async (req, reply) => {
    const zone = ctx.store.get<PullZoneRecord>("pullzone", (req.params as { id: string }).id);
    if (!zone) return coreError(reply, 404);
    const body = objectBody(ctx.strict, req.body, ["Hostname"], ["Hostname"]);
    if ("error" in body) return bodyError(reply, body.error);
    const hostname = zone.Hostnames.find((h) => h.Value === String(body.fields.Hostname).toLowerCase());
    if (!hostname) return coreError(reply, 400, "pullzone.hostname_not_found", "Hostname", "The hostname was not found on this pull zone");
    if (controlledByBunny(hostname)) {
      // A system or managed hostname goes back to bunny.net's own certificate; that one cannot be removed.
      if (hostname.CertificateProvisionType !== PROVISION.custom) return coreError(reply, 400, "pullzone.certificate_managed", "Hostname", "The certificate of a system or managed hostname is managed by bunny.net");
      Object.assign(hostname, { Certificate: null, CertificateKey: null, CertificateKeyType: 0, CertificateProvisionType: PROVISION.managed });
    } else {
      if (!hostname.HasCertificate) return coreError(reply, 400, "pullzone.certificate_not_found", "Hostname", "The hostname has no certificate");
      Object.assign(hostname, { HasCertificate: false, ForceSSL: false, Certificate: null, CertificateKey: null, CertificateProvisionType: PROVISION.unknown });
    }
    ctx.store.put("pullzone", zone.Id, zone);
    return reply.code(204).send();
  });

  app.post("/pullzone/:id/setForceSSL", async (req, reply) => {
    const zone = ctx.store.get<PullZoneRecord>("pullzone", (req.params as { id: string }).id);
    if (!zone) return coreError(reply, 404);
    const body = objectBody(ctx.strict, req.body, ["Hostname", "ForceSSL"], ["Hostname", "ForceSSL"]);
    if ("error" in body) return bodyError(reply, body.error);
    if (typeof body.fields.ForceSSL !== "boolean") return coreError(reply, 400, "validation_error", "ForceSSL", "The ForceSSL field must be true or false");
    const hostname = zone.Hostnames.find((h) => h.Value === String(body.fields.Hostname).toLowerCase());
    if (!hostname) return coreError(reply, 400, "pullzone.hostname_not_found", "Hostname", "The hostname was not found on this pull zone");
    if (body.fields.ForceSSL && !hostname.HasCertificate) {
      return coreError(reply, 400, "pullzone.force_ssl_requires_certificate", "ForceSSL", "Force SSL needs a certificate on the hostname");
    }
    hostname.ForceSSL = body.fields.ForceSSL;
    ctx.store.put("pullzone", zone.Id, zone);
    return reply.code(204).send();
  });

  // Admin: `count` certificates were issued for the domain elsewhere (the certificate authority counts them all).
  app.post("/_emulator/certificates-issued", async (req, reply) => {
    if (refusedForeignAdminKey(ctx, req, reply)) return reply;
    const { domain, count } = (req.body ?? {}) as { domain?: unknown; count?: unknown };
    if (typeof domain !== "string" || !Number.isInteger(count) || (count as number) < 0 || (count as number) > 10_000) {
      return reply.code(400).send({ error: { code: "invalid_request", message: "expected {domain: string, count: integer 0..10000}" } });
    }
    recordIssued(ctx, domain, Date.now(), count as number);
    return { domain: domain.toLowerCase(), count };
  });

  // Admin: the hostname's DNS "does not point here yet" for its next N certificate loads.
  app.post("/_emulator/dns-pending", async (req, reply) => {
    if (refusedForeignAdminKey(ctx, req, reply)) return reply;
    const { hostname, attempts } = (req.body ?? {}) as { hostname?: unknown; attempts?: unknown };
    if (typeof hostname !== "string" || !Number.isInteger(attempts) || (attempts as number) < 0) {
      return reply.code(400).send({ error: { code: "invalid_request", message: "expected {hostname: string, attempts: integer >= 0}" } });
    }
    ctx.store.setMeta(DNS_PENDING_PREFIX + hostname.toLowerCase(), attempts);
    return { hostname: hostname.toLowerCase(), attempts };
  });
}

function findInAccount(ctx: EmulatorContext, hostname: string): { zone: PullZoneRecord; hostname: HostnameRecord } | undefined {
  for (const id of ctx.store.idsByKey("pullzone", HOSTNAME_INDEX, hostname)) {
    const zone = ctx.store.get<PullZoneRecord>("pullzone", id);
    if (zone === undefined) continue;
    const found = zone.Hostnames.find((h) => h.Value.toLowerCase() === hostname);
    if (found) return { zone, hostname: found };
  }
  return undefined;
}

function setCertificate(hostname: HostnameRecord, certificatePem: string, privateKeyPem: string, provision: number): void {
  hostname.HasCertificate = true;
  hostname.Certificate = Buffer.from(certificatePem).toString("base64");
  hostname.CertificateKey = Buffer.from(privateKeyPem).toString("base64");
  hostname.CertificateProvisionType = provision;
  // PrivateKeyType: Ecdsa = 0, Rsa = 1.
  hostname.CertificateKeyType = createPrivateKey(privateKeyPem).asymmetricKeyType === "rsa" ? 1 : 0;
}

/** Base64 that decodes to PEM text with the label, or undefined. */
function decodePem(value: string, label: RegExp): string | undefined {
  if (!/^[A-Za-z0-9+/_=-]+$/.test(value)) return undefined;
  const text = Buffer.from(value, "base64").toString("utf8");
  return label.test(text) ? text : undefined;
}

/** AddCertificateRequestModel's data: the server's own checks (never echoing what was sent). */
function checkCertificate(certificate: string, certificateKey: string, hostname: string): { certificatePem: string; privateKeyPem: string } | { error: BodyError } {
  const certificatePem = decodePem(certificate, /-----BEGIN CERTIFICATE-----/);
  if (!certificatePem) return { error: { key: "pullzone.certificate_invalid", field: "Certificate", message: "The certificate must be the Base64 encoded data of a PEM certificate file" } };
  const privateKeyPem = decodePem(certificateKey, /-----BEGIN (RSA |EC )?PRIVATE KEY-----/);
  if (!privateKeyPem) return { error: { key: "pullzone.certificate_key_invalid", field: "CertificateKey", message: "The certificate key must be the Base64 encoded data of a PEM private key file" } };
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certificatePem);
  } catch {
    return { error: { key: "pullzone.certificate_invalid", field: "Certificate", message: "The certificate could not be parsed" } };
  }
  try {
    if (!cert.checkPrivateKey(createPrivateKey(privateKeyPem))) {
      return { error: { key: "pullzone.certificate_key_mismatch", field: "CertificateKey", message: "The certificate key does not match the certificate" } };
    }
  } catch {
    return { error: { key: "pullzone.certificate_key_invalid", field: "CertificateKey", message: "The certificate key could not be parsed" } };
  }
  const now = Date.now();
  if (Date.parse(cert.validTo) <= now) return { error: { key: "pullzone.certificate_expired", field: "Certificate", message: "The certificate has expired" } };
  if (Date.parse(cert.validFrom) > now) return { error: { key: "pullzone.certificate_not_yet_valid", field: "Certificate", message: "The certificate is not valid yet" } };
  if (cert.checkHost(hostname) === undefined) {
    return { error: { key: "pullzone.certificate_hostname_mismatch", field: "Certificate", message: `The certificate does not cover ${hostname}` } };
  }
  return { certificatePem, privateKeyPem };
}

function bodyError(reply: FastifyReply, error: BodyError): FastifyReply {
  return coreError(reply, 400, error.key, error.field, error.message);
}

/** A JSON object body with only `allowed` properties and every `required` one a non-empty value. */
function objectBody(strict: boolean, body: unknown, allowed: string[], required: string[]): { fields: Record<string, unknown> } | { error: BodyError } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { error: { key: "validation_error", message: "The request body must be a JSON object" } };
  }
  const fields = body as Record<string, unknown>;
  const extra = firstUnknownProperty(strict, fields, allowed);
  if (extra) return { error: { key: "validation_error", ...extra } };
  const missing = required.find((k) => fields[k] === undefined || fields[k] === null || fields[k] === "");
  if (missing) return { error: { key: "validation_error", field: missing, message: `The ${missing} field is required` } };
  return { fields };
}

interface BodyError {
  key: string;
  field?: string;
  message: string;
}

/** AddHostnameRequestModel / RemoveHostnameRequestModel: `{Hostname}` (min length 1), no other properties. */
function hostnameBody(strict: boolean, body: unknown): { hostname: string } | { error: BodyError } {
  const checked = objectBody(strict, body, ["Hostname"], ["Hostname"]);
  if ("error" in checked) return checked;
  const hostname = checked.fields.Hostname;
  if (typeof hostname !== "string") return { error: { key: "validation_error", field: "Hostname", message: "The Hostname field must be a string" } };
  return { hostname };
}

const SERVER_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * The server's own hostname rule (deliberately not shared with the client's schema: the emulator
 * stands in for bunny.net, so tests can show the client refusing what the server would refuse).
 */
function serverHostnameProblem(value: string): string | undefined {
  if (value.length > 253) return "longer than 253 characters";
  const labels = value.split(".");
  if (labels.length < 2) return "not a fully qualified domain name";
  if (!labels.every((l) => SERVER_LABEL.test(l))) return "labels must be 1-63 letters, digits or hyphens, not starting or ending with a hyphen";
  if (/^\d+$/.test(labels[labels.length - 1])) return "IP addresses are not hostnames";
  return undefined;
}

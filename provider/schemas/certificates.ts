import { X509Certificate, createPrivateKey } from "node:crypto";
import { CertificateProvision } from "./pullZones";
import type { Hostname } from "../types.generated";

/**
 * PEM certificates and keys as the package checks and describes them, with node:crypto only. No message
 * here ever contains the key or any part of it: only what is wrong with it.
 */

/** What a certificate says, as resource outputs show it. */
export interface CertificateDetails {
  /** The issuer's distinguished name, e.g. `C=US, O=Let's Encrypt, CN=R11`. */
  issuer: string;
  subject: string;
  /** ISO 8601 (UTC). */
  notBefore: string;
  /** ISO 8601 (UTC): when the certificate expires. */
  expiresAt: string;
  /** The DNS names it covers. */
  subjectAltNames: string[];
  /** SHA-256 fingerprint, colon-separated hex (what browsers show). */
  fingerprintSha256: string;
}

const oneLine = (dn: string) => dn.split("\n").filter(Boolean).join(", ");

/** The first certificate of PEM text (a chain starts with the leaf), or undefined when it does not parse. */
export function parseCertificate(pem: string): X509Certificate | undefined {
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) return undefined;
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

export function describeCertificate(cert: X509Certificate): CertificateDetails {
  const subjectAltNames = (cert.subjectAltName ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.startsWith("DNS:"))
    .map((s) => s.slice(4));
  return {
    issuer: oneLine(cert.issuer),
    subject: oneLine(cert.subject),
    notBefore: new Date(cert.validFrom).toISOString(),
    expiresAt: new Date(cert.validTo).toISOString(),
    subjectAltNames,
    fingerprintSha256: cert.fingerprint256,
  };
}

/** Why the key does not go with the certificate (or is no PEM private key), or undefined when it does. */
export function privateKeyProblem(cert: X509Certificate, keyPem: string): string | undefined {
  if (!/-----BEGIN (RSA |EC |ENCRYPTED )?PRIVATE KEY-----/.test(keyPem)) return "must be a PEM private key (-----BEGIN PRIVATE KEY-----)";
  if (keyPem.includes("ENCRYPTED PRIVATE KEY")) return "must not be encrypted (bunny.net needs the key itself)";
  try {
    return cert.checkPrivateKey(createPrivateKey(keyPem)) ? undefined : "does not match the certificate (it is the key of another certificate)";
  } catch {
    return "is not a readable PEM private key";
  }
}

/** Why the certificate cannot serve now (expired, not valid yet), or undefined. */
export function validityProblem(cert: X509Certificate, now = Date.now()): string | undefined {
  if (Date.parse(cert.validTo) <= now) return `expired on ${new Date(cert.validTo).toISOString()}`;
  if (Date.parse(cert.validFrom) > now) return `is not valid before ${new Date(cert.validFrom).toISOString()}`;
  return undefined;
}

/** Why the certificate does not cover the hostname, or undefined when it does (wildcards included). */
export function coverageProblem(cert: X509Certificate, hostname: string): string | undefined {
  if (cert.checkHost(hostname) !== undefined) return undefined;
  const names = describeCertificate(cert).subjectAltNames;
  return `does not cover ${hostname} (it covers ${names.length > 0 ? names.join(", ") : oneLine(cert.subject)})`;
}

/** The certificate a hostname carries (read with includeCertificate), parsed; undefined without one. */
export function installedCertificate(hostname: Hostname): X509Certificate | undefined {
  return hostname.Certificate ? parseCertificate(Buffer.from(hostname.Certificate, "base64").toString("utf8")) : undefined;
}

/** Where a hostname's certificate came from, in words: none, free (issued by bunny.net), custom, or bunny.net's own. */
export function certificateKind(hostname: Hostname): "none" | "free" | "custom" | "bunny.net" {
  if (!hostname.HasCertificate) return "none";
  if (hostname.CertificateProvisionType === CertificateProvision.Custom) return "custom";
  // A system or a managed hostname (both controlled by bunny.net, core-api-v1.0.0.json HostnameModel) with its own certificate.
  if ((hostname.IsSystemHostname || hostname.IsManagedHostname) && hostname.CertificateProvisionType === CertificateProvision.Managed) return "bunny.net";
  return "free";
}

import { z } from "zod";

/**
 * Pull zones and their custom hostnames (core API: PullZoneModel, HostnameModel,
 * AddHostnameRequestModel, RemoveHostnameRequestModel, AddCertificateRequestModel,
 * RemoveCertificateRequestModel, ForceSSLRequestModel).
 */

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** Why `value` is not a bare DNS hostname, or undefined when it is one. */
export function hostnameProblem(value: string): string | undefined {
  if (value.length === 0) return "must not be empty";
  if (value.length > 253) return `must be at most 253 characters (got ${value.length})`;
  if (/\s/.test(value)) return "must not contain spaces";
  if (value.includes("://")) return "must be a bare hostname, without a scheme such as https://";
  if (value.includes("/")) return "must be a bare hostname, without a path";
  if (value.includes(":")) return "must be a bare hostname, without a port";
  if (/[^\x21-\x7e]/.test(value)) return "must be ASCII (write internationalised names in punycode, xn--…)";
  const labels = value.split(".");
  if (labels.some((l) => l === "")) return "must not have empty labels (leading, trailing or doubled dots)";
  if (labels.length < 2) return "must be a fully qualified domain name such as cdn.example.com";
  for (const label of labels) {
    if (label.length > 63) return `label "${label.slice(0, 20)}…" is longer than 63 characters`;
    if (!LABEL.test(label)) return `label "${label}" may only contain letters, digits and hyphens, and must not start or end with a hyphen`;
  }
  if (/^\d+$/.test(labels[labels.length - 1])) return "must be a domain name, not an IP address";
  return undefined;
}

/**
 * A custom hostname as the client sends it. DNS names are case-insensitive, so it is lowercased:
 * the emulator stores lowercase too, and lookups compare lowercase.
 */
export const HostnameValueSchema = z
  .string()
  .superRefine((value, ctx) => {
    const problem = hostnameProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .transform((value) => value.toLowerCase());

/** Body of `POST /pullzone/{id}/addHostname`, `DELETE /pullzone/{id}/removeHostname` and `DELETE /pullzone/{id}/removeCertificate`. */
export const HostnameRequestSchema = z.object({ Hostname: HostnameValueSchema }).strict();

const base64 = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, "must be Base64");

/** Body of `POST /pullzone/{id}/addCertificate`: the PEM files' bytes, Base64 encoded. */
export const AddCertificateRequestSchema = z.object({ Hostname: HostnameValueSchema, Certificate: base64, CertificateKey: base64 }).strict();

/** Body of `POST /pullzone/{id}/setForceSSL`. */
export const ForceSslRequestSchema = z.object({ Hostname: HostnameValueSchema, ForceSSL: z.boolean() }).strict();

/** CertificateProvisionType: how the hostname's certificate came to be. */
export const CertificateProvision = { Unknown: 0, Http01: 1, Dns01: 2, Custom: 3, Managed: 4 } as const;

const flag = z
  .boolean()
  .nullish()
  .transform((v) => v ?? false);
const text = z
  .string()
  .nullish()
  .transform((v) => v ?? "");

/**
 * One hostname of a pull zone. `Certificate` (Base64 of the PEM, only sent with includeCertificate) is kept;
 * the private key the API sends beside it (`CertificateKey`) is a secret and is dropped here, so it never
 * reaches anything the package returns, stores or prints.
 */
export const HostnameSchema = z.object({
  Id: z.number(),
  Value: text,
  ForceSSL: flag,
  IsSystemHostname: flag,
  IsManagedHostname: flag,
  HasCertificate: flag,
  CertificateKeyType: z.number().nullish(),
  CertificateProvisionType: z.number().nullish(),
  Certificate: z.string().nullish(),
});

/** The fields of a pull zone the package reads; everything else the API sends is ignored. */
export const PullZoneSchema = z.object({
  Id: z.number(),
  Name: text,
  OriginUrl: text,
  Enabled: flag,
  Suspended: flag,
  /** Premium = 0, Volume = 1. */
  Type: z.number().nullish(),
  EnableLogging: flag,
  EnableExtendedLogging: flag,
  LoggingIPAnonymizationEnabled: flag,
  EnableOriginShield: flag,
  EdgeScriptId: z.number().nullish(),
  Hostnames: z
    .array(HostnameSchema)
    .nullish()
    .transform((h) => h ?? []),
});

export type HostnameRequest = z.input<typeof HostnameRequestSchema>;
export type AddCertificateRequest = z.input<typeof AddCertificateRequestSchema>;
export type Hostname = z.output<typeof HostnameSchema>;
export type PullZone = z.output<typeof PullZoneSchema>;

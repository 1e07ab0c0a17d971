import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { AlreadyExistsError, UnexpectedResponseError } from "../http/errors";
import { idFromString } from "../schemas/common";
import { type CertificateDetails, coverageProblem, parseCertificate, privateKeyProblem, validityProblem } from "../schemas/certificates";
import { type Hostname, HostnameValueSchema } from "../schemas/pullZones";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, NumericId, OutputProperties } from "../pulumi/types";
import { type CheckFailure, type ResourceContext, UNKNOWN, adoptionInputs, argsMatchSchema, defineResource, isAmbiguous } from "../pulumi";
import { type TlsInput, applyTls, certificateOf, observedTls } from "./pullZoneHostnameTls";
import { numericPart } from "../pulumi/importIds";

export type { TlsInput } from "./pullZoneHostnameTls";

/**
 * A pull zone hostname with its TLS certificate and force-SSL. Compared with the Terraform provider's
 * `bunnynet_pullzone_hostname` (BunnyWay/terraform-provider-bunnynet, internal/provider/resource_pullzone_hostname.go:
 * `force_ssl`, `tls_enabled`, `certificate`, `certificate_key`), this answers its issues: #36 and #41 (a free
 * certificate that fails while DNS does not point at bunny.net yet leaves a half-created hostname, and the next
 * apply fails with "already registered": here it is retried within `certificateWaitSeconds`, then the hostname
 * just added is removed again, so nothing is left and the next `up` starts over), #7 (a 400 with no useful
 * message: the error names the hostname, the attempts and the server's message), #12 (TLS and force-SSL on the
 * zone's own `*.b-cdn.net` hostname in one pass: that hostname is managed here without being added).
 */

export const PULL_ZONE_HOSTNAME_TYPE = "PullZoneHostname";

/** bunny.net's own domain: a zone's system hostname is `<zone name>.b-cdn.net`, covered by bunny.net's certificate. */
const SYSTEM_DOMAIN = ".b-cdn.net";
const isUnderSystemDomain = (hostname: string) => hostname.toLowerCase().endsWith(SYSTEM_DOMAIN);

/**
 * bunny.net controls the hostname: the zone's system hostname or a managed one (HostnameModel's IsSystemHostname and
 * IsManagedHostname, core-api-v1.0.0.json). It is configured, never added or removed, as bunny.net's Terraform
 * provider does (internal/api/pullzone_hostname.go, CreatePullzoneHostname; resource_pullzone_hostname.go, Delete).
 */
const controlledByBunny = (hostname: Hostname) => hostname.IsSystemHostname || hostname.IsManagedHostname;

const TLS_CHOICES = 'must be "none", "free", or { certificate, privateKey } (PEM text)';

/**
 * `tls`: "none" (the default), "free" (a certificate bunny.net issues) or a custom certificate. The custom
 * certificate is checked here (no API call): the certificate parses, the key is a PEM private key that matches
 * it, and it is valid now. That it covers the hostname is checked with the hostname (see `complete`).
 */
const TlsSchema = z
  .unknown()
  .optional()
  .transform((value, ctx): TlsInput => {
    if (value === undefined || value === null || value === "none") return "none";
    if (value === "free") return "free";
    if (typeof value !== "object" || Array.isArray(value)) {
      ctx.addIssue({ code: "custom", message: TLS_CHOICES });
      return z.NEVER;
    }
    const given = value as Record<string, unknown>;
    for (const key of Object.keys(given).filter((k) => k !== "certificate" && k !== "privateKey")) {
      ctx.addIssue({ code: "custom", path: [key], message: "unknown property (expected certificate, privateKey)" });
    }
    const { certificate, privateKey } = given;
    if (typeof certificate !== "string") ctx.addIssue({ code: "custom", path: ["certificate"], message: "the PEM certificate (text) is required" });
    if (typeof privateKey !== "string") ctx.addIssue({ code: "custom", path: ["privateKey"], message: "the PEM private key (text) is required" });
    if (typeof certificate !== "string" || typeof privateKey !== "string") return z.NEVER;
    const cert = parseCertificate(certificate);
    if (!cert) {
      ctx.addIssue({ code: "custom", path: ["certificate"], message: "is not a PEM certificate (-----BEGIN CERTIFICATE-----)" });
      return z.NEVER;
    }
    const keyProblem = privateKeyProblem(cert, privateKey);
    if (keyProblem) ctx.addIssue({ code: "custom", path: ["privateKey"], message: keyProblem });
    const notValid = validityProblem(cert);
    if (notValid) ctx.addIssue({ code: "custom", path: ["certificate"], message: notValid });
    return { certificate, privateKey };
  });

const pullZoneHostnameInputs = z
  .object({
    pullZoneId: idFromString,
    // A bare DNS name, lowercased (hostnames are case-insensitive; the API stores them lowercase).
    hostname: HostnameValueSchema,
    tls: TlsSchema,
    forceSsl: z.boolean().default(false),
    certificateWaitSeconds: z.number().min(0).max(3600).default(120),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof pullZoneHostnameInputs>;

/** The zone's hostname with its certificate, or undefined. */
const findWithCertificate = ({ client }: ResourceContext, inputs: Pick<Inputs, "pullZoneId" | "hostname">) =>
  client.pullZones.findHostname(inputs.pullZoneId, inputs.hostname, { withCertificate: true });

async function readBack(ctx: ResourceContext, inputs: Inputs): Promise<Hostname> {
  const found = await findWithCertificate(ctx, inputs);
  if (!found) throw new UnexpectedResponseError({ method: "GET", path: `/pullzone/${inputs.pullZoneId}`, serverMessage: `the hostname ${inputs.hostname} is not on the zone` });
  return found;
}

/**
 * Adds the hostname; an "already registered" on another zone says so (nothing there can be adopted). An add
 * whose answer was lost but which the zone shows done counts as done here, so a certificate that then fails
 * still rolls it back.
 */
async function addHostname(ctx: ResourceContext, inputs: Inputs): Promise<void> {
  try {
    await ctx.client.pullZones.addHostname(inputs.pullZoneId, inputs.hostname);
  } catch (e) {
    if (isAmbiguous(e) && (await findWithCertificate(ctx, inputs).catch(() => undefined))) return;
    // "Already registered" on this zone is for the framework's adoption rules; on another zone nothing can be adopted.
    // The same read as the framework's look-up that follows (which the deployment's read cache then serves).
    if (e instanceof AlreadyExistsError && (await findWithCertificate(ctx, inputs)) === undefined) {
      throw new Error(
        `${inputs.hostname} is already registered on another pull zone, not on pull zone ${inputs.pullZoneId}: it cannot be adopted here. ` +
          `Remove it from the other zone first (${e.message}).`,
        { cause: e },
      );
    }
    throw e;
  }
}

/**
 * After the hostname was added, its certificate could not be set: the hostname is removed again (rolled
 * back), so no half-created hostname is left for the next `up` to trip over.
 */
async function rollBack(ctx: ResourceContext, inputs: Inputs, failure: unknown): Promise<never> {
  const message = (failure as Error).message;
  const removal = await ctx.client.pullZones.removeHostname(inputs.pullZoneId, inputs.hostname).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  if (removal) {
    throw new Error(
      `${message} Removing the hostname just added failed too (${removal.message}): ` +
        `remove ${inputs.hostname} from pull zone ${inputs.pullZoneId}, or set adoptExisting: true, and run again.`,
      { cause: failure },
    );
  }
  throw new Error(`${message} The hostname was removed again, so nothing is left behind and the next run starts over.`, { cause: failure });
}

const pullZoneHostname = defineResource<PullZoneHostnameOutputs>()({
  type: PULL_ZONE_HOSTNAME_TYPE,
  inputs: pullZoneHostnameInputs,
  computedOutputs: ["hostnameId", "hasCertificate", "isSystemHostname", "certificate"],
  idOutput: { name: "hostnameId", numeric: true },
  // A hostname is only a value on a zone: another zone or another name is another hostname.
  replaceOnChanges: ["pullZoneId", "hostname"],
  identity: ["pullZoneId", "hostname"],
  // The API refuses a hostname already registered on any zone (400 "already registered", BUNNY-API.md).
  refusesDuplicates: true,
  // An adopted hostname (or one whose add answer was lost) gets the certificate and force-SSL asked for.
  setOnAdoption: ["tls", "forceSsl"],
  secretInputs: ["tls"],

  importId: {
    format: "<pullZoneId>/<hostname>",
    // Read by its name on the zone (get: findWithCertificate); the stored id is the hostname's number, as create stores.
    parse: ([pullZoneId, hostname]) => ({ id: hostname, state: { pullZoneId: numericPart(pullZoneId, "pullZoneId"), hostname: hostname.toLowerCase() } }),
    notRead: "tls: a custom certificate's key is never answered; the next up sets the program's",
  },
  describe(hostname: Hostname, requested: Inputs) {
    return {
      id: String(hostname.Id),
      inputs: { ...requested, hostname: hostname.Value.toLowerCase(), tls: observedTls(hostname, requested.tls) as TlsInput, forceSsl: hostname.ForceSSL },
      outputs: {
        hostnameId: hostname.Id,
        hasCertificate: hostname.HasCertificate,
        isSystemHostname: controlledByBunny(hostname),
        certificate: certificateOf(hostname),
      },
    };
  },

  async complete(inputs, unknown) {
    const failures: CheckFailure[] = [];
    const tls = inputs.tls as TlsInput | typeof UNKNOWN;
    const hostname = String(inputs.hostname);
    // At preview a part of `tls` may not be known yet (then it was not judged, and is not here either).
    const cert = typeof tls === "object" && tls !== null ? parseCertificate(String(tls.certificate)) : undefined;
    if (cert && !unknown.has("hostname")) {
      const problem = coverageProblem(cert, hostname);
      if (problem) failures.push({ property: "tls.certificate", reason: problem });
    }
    if (inputs.forceSsl === true && tls === "none" && !unknown.has("hostname") && !isUnderSystemDomain(hostname)) {
      failures.push({ property: "forceSsl", reason: 'needs a certificate: set tls to "free" or to a custom certificate' });
    }
    return { inputs, failures };
  },

  // A system or managed hostname is always there: it is configured without being added (or adopted).
  find: async (ctx, inputs) => {
    const found = await findWithCertificate(ctx, inputs);
    return found && controlledByBunny(found) ? undefined : found;
  },

  async create(ctx, inputs) {
    const system = isUnderSystemDomain(inputs.hostname) ? await findWithCertificate(ctx, inputs) : undefined;
    if (system && controlledByBunny(system)) {
      await applyTls(ctx.client, inputs, system);
      return readBack(ctx, inputs);
    }
    await addHostname(ctx, inputs);
    // The add answers 204 without a body: the hostname's id and flags come from the zone.
    const added = await readBack(ctx, inputs);
    try {
      await applyTls(ctx.client, inputs, added);
    } catch (e) {
      return rollBack(ctx, inputs, e);
    }
    return readBack(ctx, inputs);
  },

  get: (ctx, _id, state) => findWithCertificate(ctx, state),

  async update(ctx, _id, state, inputs) {
    await applyTls(ctx.client, inputs, await readBack(ctx, state));
    return readBack(ctx, inputs);
  },

  // A system or managed hostname stays: it only loses force-SSL and a custom certificate. One the state shows was added is
  // removed without reading the zone first ("already gone", like a zone that is gone, counts as done).
  async delete(ctx, _id, state) {
    if (state.isSystemHostname === false) return ctx.client.pullZones.removeHostname(state.pullZoneId, state.hostname);
    const current = await findWithCertificate(ctx, state);
    if (!current) return;
    if (!controlledByBunny(current)) return ctx.client.pullZones.removeHostname(state.pullZoneId, state.hostname);
    await applyTls(ctx.client, { ...state, tls: "none", forceSsl: false }, current);
  },
});

export interface PullZoneHostnameArgs extends AdoptableArgs {
  /** The pull zone that serves the hostname. Changing it replaces the hostname. */
  pullZoneId: pulumi.Input<NumericId>;
  /**
   * A bare DNS name such as `cdn.example.com` (no scheme, port or path); stored lowercase. Changing it replaces
   * the hostname. The zone's own `<zone>.b-cdn.net` hostname works too: it is configured, never added or removed.
   */
  hostname: pulumi.Input<string>;
  /**
   * The certificate: `"none"` (default), `"free"` (issued by bunny.net; the hostname's DNS must point at the
   * zone), or `{ certificate, privateKey }` as PEM text (checked at preview: parses, key matches, covers the
   * hostname, not expired). The whole value is stored as a secret when it holds a key. Changes in place.
   */
  tls?: pulumi.Input<"none" | "free" | { certificate: pulumi.Input<string>; privateKey: pulumi.Input<string> }>;
  /** Redirect HTTP to HTTPS (needs `tls`, except on a b-cdn.net hostname). Changes in place. Default false. */
  forceSsl?: pulumi.Input<boolean>;
  /**
   * How long a free certificate is retried while bunny.net cannot issue it (DNS not pointing at the zone yet),
   * in seconds (0..3600, default 120). When it runs out, a hostname this run added is removed again.
   */
  certificateWaitSeconds?: pulumi.Input<number>;
}

argsMatchSchema<PullZoneHostnameArgs, typeof pullZoneHostnameInputs>(true);

/** What a PullZoneHostname holds once deployed. */
export interface PullZoneHostnameOutputs {
  pullZoneId: number;
  hostname: string;
  tls: TlsInput;
  forceSsl: boolean;
  certificateWaitSeconds: number;
  adoptExisting: boolean;
  /** The hostname's id in the API. */
  hostnameId: number;
  /** Whether a certificate is installed for the hostname. */
  hasCertificate: boolean;
  /** Whether bunny.net controls it (the zone's system hostname, or a managed one): configured, never added or removed. */
  isSystemHostname: boolean;
  /** The installed certificate (issuer, subject, validity, SANs, fingerprint); unset without one (or bunny.net's own). */
  certificate: CertificateDetails | undefined;
}

export interface PullZoneHostname extends OutputProperties<PullZoneHostnameOutputs> {}
/**
 * A hostname of a pull zone (`/pullzone/{id}/addHostname`) with its certificate and force-SSL. A hostname can be
 * on one zone only: one already on this zone (for instance from an interrupted `up`) is taken over with
 * `adoptExisting` (or the command the refusal prints, as a hostname keeps nothing that shows which stack added it),
 * and given the certificate and force-SSL asked for; one on another zone is refused.
 */
export class PullZoneHostname extends BunnyResource {
  constructor(name: string, args: PullZoneHostnameArgs, opts?: pulumi.CustomResourceOptions) {
    // A custom certificate carries its private key: the whole `tls` value is stored encrypted, whatever the program passed.
    const tls = args.tls === undefined ? undefined : pulumi.output(args.tls).apply((t) => (typeof t === "object" && t !== null ? pulumi.secret(t) : pulumi.output(t)));
    super(pullZoneHostname, name, { ...args, tls }, opts);
  }
}

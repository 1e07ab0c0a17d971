import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { normalDomain } from "../client/dns";
import { DNS_CERTIFICATE_KEY_TYPES, DNS_LOG_ANONYMIZATION_TYPES } from "../schemas/dnsEnums";
import type { DnsZone as ApiDnsZone, UpdateDnsZoneRequest } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, OutputProperties } from "../pulumi/types";
import { type CheckFailure, adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";
import { ownIdOnly } from "../pulumi/importIds";

/**
 * A DNS zone. Sources: core-api-v1.0.0.json (DnsZonePublic_Add, DnsZonePublic_Index2, DnsZonePublic_Update,
 * DnsZonePublic_Delete, DnsZonePublic_Index with `search`, ManageDnsZoneDnsSecEndpoint_*; DnsZoneAddModel,
 * UpdateDnsZoneModel, DnsZoneModel), BunnyWay/terraform-provider-bunnynet internal/provider/resource_dns_zone.go
 * (the attributes: custom nameservers, SOA email, logging and its anonymisation, DNSSEC) and internal/api/dnszone.go
 * (the zone is added with its domain only, then its settings are set by an update).
 */

export const DNS_ZONE_TYPE = "DnsZone";

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const domain = z
  .string()
  .transform(normalDomain)
  .refine((v) => v.length <= 253 && v.includes(".") && v.split(".").every((l) => LABEL.test(l)), "must be a domain name such as example.com");
const hostname = z
  .string()
  .transform(normalDomain)
  .refine((v) => v.length <= 253 && v.split(".").every((l) => LABEL.test(l)), "must be a hostname such as ns1.example.com");

type LogAnonymization = keyof typeof DNS_LOG_ANONYMIZATION_TYPES;
type CertificateKey = keyof typeof DNS_CERTIFICATE_KEY_TYPES;

const dnsZoneInputs = z
  .object({
    domain,
    customNameservers: z.boolean().default(false),
    nameserver1: hostname.optional(),
    nameserver2: hostname.optional(),
    soaEmail: z.email("must be an email address").max(254).optional(),
    loggingEnabled: z.boolean().default(false),
    logIpAnonymization: z.boolean().default(true),
    logAnonymizationType: z.enum(Object.keys(DNS_LOG_ANONYMIZATION_TYPES) as [LogAnonymization]).default("OneDigit"),
    certificateKeyType: z.enum(Object.keys(DNS_CERTIFICATE_KEY_TYPES) as [CertificateKey]).default("Ecdsa"),
    dnssecEnabled: z.boolean().default(false),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof dnsZoneInputs>;

function nameOf<T extends Record<string, number>>(values: T, n: number, fallback: keyof T): keyof T {
  return (Object.keys(values) as (keyof T)[]).find((k) => values[k] === n) ?? fallback;
}

/** The settings as UpdateDnsZoneModel: nameservers only when they are custom, the SOA email only when it is managed. */
function settingsOf(inputs: Inputs): UpdateDnsZoneRequest {
  return {
    CustomNameserversEnabled: inputs.customNameservers,
    ...(inputs.customNameservers ? { Nameserver1: inputs.nameserver1, Nameserver2: inputs.nameserver2 } : {}),
    ...(inputs.soaEmail !== undefined ? { SoaEmail: inputs.soaEmail } : {}),
    LoggingEnabled: inputs.loggingEnabled,
    LoggingIPAnonymizationEnabled: inputs.logIpAnonymization,
    LogAnonymizationType: DNS_LOG_ANONYMIZATION_TYPES[inputs.logAnonymizationType],
    CertificateKeyType: DNS_CERTIFICATE_KEY_TYPES[inputs.certificateKeyType],
  };
}

function observedInputs(zone: ApiDnsZone, requested: Inputs): Inputs {
  const custom = zone.CustomNameserversEnabled;
  return {
    ...requested,
    domain: normalDomain(zone.Domain),
    customNameservers: custom,
    nameserver1: custom ? normalDomain(zone.Nameserver1) : undefined,
    nameserver2: custom ? normalDomain(zone.Nameserver2) : undefined,
    // Unset, the SOA email is the API's to choose: it is compared only when the program sets it.
    soaEmail: requested.soaEmail === undefined ? undefined : zone.SoaEmail,
    loggingEnabled: zone.LoggingEnabled,
    logIpAnonymization: zone.LoggingIPAnonymizationEnabled,
    logAnonymizationType: nameOf(DNS_LOG_ANONYMIZATION_TYPES, zone.LogAnonymizationType, "OneDigit"),
    certificateKeyType: nameOf(DNS_CERTIFICATE_KEY_TYPES, zone.CertificateKeyType, "Ecdsa"),
    dnssecEnabled: zone.DnsSecEnabled,
  };
}

/** Whether the zone's settings already are the requested ones (then a create needs no update). */
function settingsMatch(zone: ApiDnsZone, inputs: Inputs): boolean {
  const seen = observedInputs(zone, inputs);
  const keys = ["customNameservers", "nameserver1", "nameserver2", "soaEmail", "loggingEnabled", "logIpAnonymization", "logAnonymizationType", "certificateKeyType"] as const;
  return keys.every((k) => seen[k] === inputs[k]);
}

/** Sets the settings (when they differ) and DNSSEC (when it differs); answers the zone as it then is. */
async function apply(client: import("../client").BunnyClient, zone: ApiDnsZone, inputs: Inputs): Promise<ApiDnsZone> {
  let now = settingsMatch(zone, inputs) ? zone : await client.dns.updateZone(zone.Id, settingsOf(inputs));
  if (now.DnsSecEnabled !== inputs.dnssecEnabled) {
    const ds = await client.dns.setDnssec(zone.Id, inputs.dnssecEnabled);
    now = { ...now, DnsSecEnabled: ds.Enabled };
  }
  return now;
}

const dnsZone = defineResource<DnsZoneOutputs>()({
  type: DNS_ZONE_TYPE,
  inputs: dnsZoneInputs,
  computedOutputs: ["dnsZoneId", "nameservers", "nameserversDetected"],
  idOutput: { name: "dnsZoneId", numeric: true },
  // A zone cannot be renamed: a new domain is a new zone.
  replaceOnChanges: ["domain"],
  identity: ["domain"],
  // The API refuses a domain that is already a zone: the refusal is the look-up (no read before each create).
  refusesDuplicates: true,

  importId: ownIdOnly("dnsZoneId", true),
  describe(zone: ApiDnsZone, requested: Inputs) {
    return {
      id: String(zone.Id),
      inputs: observedInputs(zone, requested),
      outputs: { dnsZoneId: zone.Id, nameservers: [zone.Nameserver1, zone.Nameserver2].filter((n) => n !== ""), nameserversDetected: zone.NameserversDetected },
    };
  },

  async complete(inputs, unknown) {
    const failures: CheckFailure[] = [];
    if (!unknown.has("customNameservers")) {
      for (const key of ["nameserver1", "nameserver2"]) {
        if (unknown.has(key)) continue;
        if (inputs.customNameservers === true && inputs[key] === undefined) failures.push({ property: key, reason: "is required when customNameservers is true" });
        if (inputs.customNameservers !== true && inputs[key] !== undefined) failures.push({ property: key, reason: "is used only with customNameservers: true (else the zone answers with bunny.net's nameservers)" });
      }
    }
    return { inputs, failures };
  },

  find: ({ client }, inputs) => client.dns.findZoneByDomain(inputs.domain),

  async create({ client }, inputs) {
    const zone = await client.dns.addZone(inputs.domain);
    return apply(client, zone, inputs);
  },

  get: ({ client }, id) => client.dns.getZone(Number(id)),

  async update({ client }, id, state, inputs) {
    const zone = await client.dns.updateZone(Number(id), settingsOf(inputs));
    return state.dnssecEnabled === inputs.dnssecEnabled && zone.DnsSecEnabled === inputs.dnssecEnabled ? zone : apply(client, zone, inputs);
  },

  // The API deletes the zone's records with it.
  delete: ({ client }, id) => client.dns.deleteZone(Number(id)),
});

export interface DnsZoneArgs extends AdoptableArgs {
  /** The domain (e.g. `example.com`; case and a trailing dot are ignored). Changing it replaces the zone. */
  domain: pulumi.Input<string>;
  /** Answer with your own nameserver names (`nameserver1`, `nameserver2`) instead of bunny.net's. Default false. */
  customNameservers?: pulumi.Input<boolean>;
  /** The first custom nameserver (with `customNameservers: true` only, then required). */
  nameserver1?: pulumi.Input<string>;
  /** The second custom nameserver (with `customNameservers: true` only, then required). */
  nameserver2?: pulumi.Input<string>;
  /** The SOA record's email. Unset: bunny.net's default, not compared. */
  soaEmail?: pulumi.Input<string>;
  /** Keep DNS query logs. Default false. */
  loggingEnabled?: pulumi.Input<boolean>;
  /** Anonymise client addresses in the logs. Default true. */
  logIpAnonymization?: pulumi.Input<boolean>;
  /** How addresses are anonymised: OneDigit (the last digit removed) or Drop. Default OneDigit. */
  logAnonymizationType?: pulumi.Input<"OneDigit" | "Drop">;
  /** The key type of the zone's automatic wildcard certificates: Ecdsa or Rsa. Default Ecdsa. */
  certificateKeyType?: pulumi.Input<"Ecdsa" | "Rsa">;
  /** Sign the zone with DNSSEC. Default false. */
  dnssecEnabled?: pulumi.Input<boolean>;
}

argsMatchSchema<DnsZoneArgs, typeof dnsZoneInputs>(true);

/** What a DnsZone holds once deployed. */
export interface DnsZoneOutputs {
  domain: string;
  customNameservers: boolean;
  nameserver1: string | undefined;
  nameserver2: string | undefined;
  soaEmail: string | undefined;
  loggingEnabled: boolean;
  logIpAnonymization: boolean;
  logAnonymizationType: "OneDigit" | "Drop";
  certificateKeyType: "Ecdsa" | "Rsa";
  dnssecEnabled: boolean;
  adoptExisting: boolean;
  /** The zone's id in the API. */
  dnsZoneId: number;
  /** The nameservers the domain must be delegated to (bunny.net's, e.g. kiki.bunny.net and coco.bunny.net, or the custom ones). */
  nameservers: string[];
  /** Whether bunny.net has seen the domain delegated to its nameservers. */
  nameserversDetected: boolean;
}

export interface DnsZone extends OutputProperties<DnsZoneOutputs> {}
/** A DNS zone served by bunny.net (`/dnszone`). Deleting it deletes its records. */
export class DnsZone extends BunnyResource {
  constructor(name: string, args: DnsZoneArgs, opts?: pulumi.CustomResourceOptions) {
    super(dnsZone, name, args, opts);
  }
}

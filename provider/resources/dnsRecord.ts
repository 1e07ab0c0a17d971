import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { idFromString } from "../schemas/common";
import { DNS_MONITOR_TYPES, DNS_RECORD_TYPES, DNS_SMART_ROUTING_TYPES, type DnsRecordType, type DnsRecordTypeName } from "../schemas/dnsEnums";
import type { AddDnsRecordRequest, DnsRecord as ApiDnsRecord } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, NumericId, OutputProperties } from "../pulumi/types";
import { MARK_ROOM, adoptionInputs, argsMatchSchema, defineResource, ownFirst } from "../pulumi";
import { DNS_RECORD_TYPE_NAMES, RECORD_TYPE_RULES, type TypeSpecificField, nameOf, recordTypeName, typeFailures, typeUses } from "./dnsRecordTypes";
import { withinParent } from "../pulumi/importIds";

/**
 * A record of a DNS zone. Sources: core-api-v1.0.0.json (DnsZonePublic_AddRecord, DnsZonePublic_UpdateRecord,
 * DnsZonePublic_DeleteRecord; AddDnsRecordModel, DnsRecordModel), BunnyWay/terraform-provider-bunnynet
 * internal/provider/resource_dns_record.go (attributes and defaults: ttl 300, enabled) and its issue #90 (a record
 * moved to another zone must be replaced). Each type's own fields are checked in dnsRecordTypes.ts.
 */

export const DNS_RECORD_TYPE = "DnsRecord";

const typeName = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const name = recordTypeName(v);
  if (name === undefined) {
    ctx.addIssue({ code: "custom", message: `must be one of ${DNS_RECORD_TYPE_NAMES.join(", ")} (or its number 0..15)` });
    return z.NEVER;
  }
  return name;
});

const LABEL = /^(\*|[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)$/;
const recordName = z
  .string()
  .max(253)
  .transform((v) => (v === "@" ? "" : v.toLowerCase()))
  .refine((v) => v === "" || v.split(".").every((l) => LABEL.test(l)), "must be a name relative to the zone ('' or '@' for the apex, e.g. 'www' or '_sip._tcp'), without a trailing dot");

const monitorName = z.enum(Object.keys(DNS_MONITOR_TYPES) as [keyof typeof DNS_MONITOR_TYPES]);
const routingName = z.enum(Object.keys(DNS_SMART_ROUTING_TYPES) as [keyof typeof DNS_SMART_ROUTING_TYPES]);

const dnsRecordInputs = z
  .object({
    dnsZoneId: idFromString,
    type: typeName,
    name: recordName,
    value: z.string().max(65535).optional(),
    ttl: z.number().int().min(0).max(2147483647).default(300),
    weight: z.number().int().optional(),
    priority: z.number().int().optional(),
    port: z.number().int().optional(),
    flags: z.number().int().optional(),
    tag: z.string().min(1, "must not be empty").optional(),
    pullZoneId: idFromString.optional(),
    scriptId: idFromString.optional(),
    accelerated: z.boolean().optional(),
    monitorType: monitorName.optional(),
    smartRoutingType: routingName.optional(),
    latencyZone: z.string().min(1, "must not be empty").optional(),
    geolocationLatitude: z.number().min(-90).max(90).optional(),
    geolocationLongitude: z.number().min(-180).max(180).optional(),
    enabled: z.boolean().default(true),
    // The API keeps 1024 characters; the owner's mark takes the rest (ownership.ts).
    comment: z.string().max(1024 - MARK_ROOM).optional(),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof dnsRecordInputs>;

/** Each type-specific input as the API reads it, with the value the API keeps when it is not set. */
const FIELD_WIRE: Record<TypeSpecificField, { read(r: ApiDnsRecord): unknown; unset: unknown }> = {
  weight: { read: (r) => r.Weight, unset: 0 },
  priority: { read: (r) => r.Priority, unset: 0 },
  port: { read: (r) => r.Port, unset: 0 },
  flags: { read: (r) => r.Flags, unset: 0 },
  tag: { read: (r) => r.Tag, unset: "" },
  pullZoneId: { read: (r) => linkedId(r.LinkName), unset: undefined },
  scriptId: { read: (r) => linkedId(r.Value) ?? linkedId(r.LinkName), unset: undefined },
  accelerated: { read: (r) => r.Accelerated, unset: false },
  monitorType: { read: (r) => nameOf(DNS_MONITOR_TYPES, r.MonitorType), unset: "None" },
  smartRoutingType: { read: (r) => nameOf(DNS_SMART_ROUTING_TYPES, r.SmartRoutingType), unset: "None" },
  latencyZone: { read: (r) => r.LatencyZone, unset: "" },
  geolocationLatitude: { read: (r) => r.GeolocationLatitude, unset: 0 },
  geolocationLongitude: { read: (r) => r.GeolocationLongitude, unset: 0 },
};

function linkedId(text: string): number | undefined {
  return /^\d{1,15}$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
}


/** The API's body for the inputs. Every field the type uses is sent, unset ones with their unset value, so an update clears what the program removed. */
function wireBody(inputs: Inputs): AddDnsRecordRequest {
  const uses = (f: TypeSpecificField) => typeUses(inputs.type, f);
  const pick = <T>(f: TypeSpecificField, value: T | undefined, unset: T): T | undefined => (uses(f) ? (value ?? unset) : undefined);
  return {
    Type: DNS_RECORD_TYPES[inputs.type],
    Name: inputs.name,
    Value: RECORD_TYPE_RULES[inputs.type].value === "none" ? undefined : inputs.value,
    Ttl: inputs.ttl,
    Weight: pick("weight", inputs.weight, 0),
    Priority: pick("priority", inputs.priority, 0),
    Port: pick("port", inputs.port, 0),
    Flags: pick("flags", inputs.flags, 0),
    Tag: pick("tag", inputs.tag, ""),
    PullZoneId: uses("pullZoneId") ? inputs.pullZoneId : undefined,
    ScriptId: uses("scriptId") ? inputs.scriptId : undefined,
    Accelerated: pick("accelerated", inputs.accelerated, false),
    MonitorType: uses("monitorType") ? DNS_MONITOR_TYPES[inputs.monitorType ?? "None"] : undefined,
    SmartRoutingType: uses("smartRoutingType") ? DNS_SMART_ROUTING_TYPES[inputs.smartRoutingType ?? "None"] : undefined,
    LatencyZone: pick("latencyZone", inputs.latencyZone, ""),
    GeolocationLatitude: pick("geolocationLatitude", inputs.geolocationLatitude, 0),
    GeolocationLongitude: pick("geolocationLongitude", inputs.geolocationLongitude, 0),
    Disabled: !inputs.enabled,
    Comment: inputs.comment ?? "",
  };
}

/** The record as inputs: fields the type does not use are unset; a field the program left unset stays so while the API holds its unset value. */
function observedInputs(record: ApiDnsRecord, requested: Inputs): Inputs {
  const type: DnsRecordTypeName = recordTypeName(record.Type) ?? requested.type;
  const observed: Record<string, unknown> = {
    ...requested,
    type,
    name: record.Name.toLowerCase(),
    value: RECORD_TYPE_RULES[type].value === "none" ? undefined : record.Value,
    ttl: record.Ttl,
    enabled: !record.Disabled,
    comment: record.Comment === "" && requested.comment === undefined ? undefined : record.Comment,
  };
  for (const field of Object.keys(FIELD_WIRE) as TypeSpecificField[]) {
    const wire = FIELD_WIRE[field];
    const value = typeUses(type, field) ? wire.read(record) : undefined;
    observed[field] = value === wire.unset && requested[field] === undefined ? undefined : value;
  }
  return observed as Inputs;
}

/** Whether an existing record is the one these inputs describe (same type, name and target). */
function sameRecord(record: ApiDnsRecord, inputs: Inputs): boolean {
  if (recordTypeName(record.Type) !== inputs.type || record.Name.toLowerCase() !== inputs.name) return false;
  const seen = observedInputs(record, inputs);
  return seen.value === inputs.value && seen.pullZoneId === inputs.pullZoneId && seen.scriptId === inputs.scriptId;
}

const dnsRecord = defineResource<DnsRecordOutputs>()({
  type: DNS_RECORD_TYPE,
  inputs: dnsRecordInputs,
  computedOutputs: ["recordId", "linkName"],
  idOutput: { name: "recordId", numeric: true },
  // Everything else changes in place (DnsZonePublic_UpdateRecord takes every field); a record cannot move to
  // another zone (Terraform #90).
  replaceOnChanges: ["dnsZoneId"],
  identity: ["dnsZoneId", "type", "name", "value", "pullZoneId", "scriptId"],
  // The comment ends with the owner's mark: a record this resource made (an interrupted `up`) is taken back.
  ownerMark: { input: "comment" },

  importId: withinParent("dnsZoneId", "recordId", { ownNumeric: true }),
  describe(record: ApiDnsRecord, requested: Inputs) {
    return { id: String(record.Id), inputs: observedInputs(record, requested), outputs: { recordId: record.Id, linkName: record.LinkName === "" ? undefined : record.LinkName } };
  },

  async complete(inputs, unknown) {
    return { inputs, failures: typeFailures(inputs, unknown) };
  },

  find: async (ctx, inputs) => {
    const matching = (await ctx.client.dns.getZone(inputs.dnsZoneId)).Records.filter((r) => sameRecord(r, inputs));
    return ownFirst(ctx, matching, (r) => r.Comment);
  },

  create: ({ client }, inputs) => client.dns.addRecord(inputs.dnsZoneId, wireBody(inputs)),

  // Read through the zone: in a refresh one read serves every record of the zone. A zone that is gone took its records.
  get: async ({ client }, id, state) => (await client.dns.getZone(state.dnsZoneId)).Records.find((r) => r.Id === Number(id)),

  async update({ client }, id, state, inputs) {
    await client.dns.updateRecord(state.dnsZoneId, Number(id), { ...wireBody(inputs), Id: Number(id) });
    return client.dns.getRecord(state.dnsZoneId, Number(id));
  },

  delete: ({ client }, id, state) => client.dns.deleteRecord(state.dnsZoneId, Number(id)),
});

export interface DnsRecordArgs extends AdoptableArgs {
  /** The DNS zone of the record. Changing it replaces the record (a record cannot move between zones). */
  dnsZoneId: pulumi.Input<NumericId>;
  /** The record type by name (A, AAAA, CNAME, TXT, MX, Redirect, Flatten, PullZone, SRV, CAA, PTR, Script, NS, SVCB, HTTPS, TLSA; as written, or in lower or upper case) or its number 0..15. Changes in place. */
  type: pulumi.Input<DnsRecordType>;
  /** The name relative to the zone: '' or '@' for the apex, 'www', '_sip._tcp'… Changes in place. */
  name: pulumi.Input<string>;
  /** The record's value (an address, a hostname without a trailing dot, a text, a URL for Redirect…). Not used by PullZone and Script records. */
  value?: pulumi.Input<string>;
  /** Time to live in seconds. Default 300. */
  ttl?: pulumi.Input<number>;
  /** A, AAAA, CNAME (0..100) and SRV (0..65535, required) only. */
  weight?: pulumi.Input<number>;
  /** MX, SRV, SVCB and HTTPS only, and required there (0..65535). */
  priority?: pulumi.Input<number>;
  /** SRV only, required (0..65535). */
  port?: pulumi.Input<number>;
  /** CAA only (0..255). */
  flags?: pulumi.Input<number>;
  /** CAA only, required: the property tag (issue, issuewild, iodef…). */
  tag?: pulumi.Input<string>;
  /** PullZone records only, required: the pull zone the name serves. */
  pullZoneId?: pulumi.Input<NumericId>;
  /** Script records only, required: the (DNS) edge script that answers. */
  scriptId?: pulumi.Input<NumericId>;
  /** A, AAAA and CNAME only: serve the name through bunny.net's CDN. */
  accelerated?: pulumi.Input<boolean>;
  /** A, AAAA and CNAME only: None, Ping, Http or Monitor. */
  monitorType?: pulumi.Input<"None" | "Ping" | "Http" | "Monitor">;
  /** A, AAAA and CNAME only: None, Latency or Geolocation. */
  smartRoutingType?: pulumi.Input<"None" | "Latency" | "Geolocation">;
  /** A, AAAA and CNAME only: the latency zone of latency routing. */
  latencyZone?: pulumi.Input<string>;
  /** A, AAAA and CNAME only: the latitude of geolocation routing (-90..90). */
  geolocationLatitude?: pulumi.Input<number>;
  /** A, AAAA and CNAME only: the longitude of geolocation routing (-180..180). */
  geolocationLongitude?: pulumi.Input<number>;
  /** Whether the record answers. Default true. */
  enabled?: pulumi.Input<boolean>;
  /** A note kept with the record. */
  comment?: pulumi.Input<string>;
}

argsMatchSchema<DnsRecordArgs, typeof dnsRecordInputs>(true);

/** What a DnsRecord holds once deployed. */
export interface DnsRecordOutputs {
  dnsZoneId: number;
  type: DnsRecordTypeName;
  name: string;
  value: string | undefined;
  ttl: number;
  weight: number | undefined;
  priority: number | undefined;
  port: number | undefined;
  flags: number | undefined;
  tag: string | undefined;
  pullZoneId: number | undefined;
  scriptId: number | undefined;
  accelerated: boolean | undefined;
  monitorType: "None" | "Ping" | "Http" | "Monitor" | undefined;
  smartRoutingType: "None" | "Latency" | "Geolocation" | undefined;
  latencyZone: string | undefined;
  geolocationLatitude: number | undefined;
  geolocationLongitude: number | undefined;
  enabled: boolean;
  comment: string | undefined;
  adoptExisting: boolean;
  /** The record's id in the API. */
  recordId: number;
  /** What the record links to, as the API names it (a PullZone record: the pull zone's id). */
  linkName: string | undefined;
}

export interface DnsRecord extends OutputProperties<DnsRecordOutputs> {}
/** A record of a DNS zone (`/dnszone/{zoneId}/records`), of any of the sixteen types bunny.net serves. */
export class DnsRecord extends BunnyResource {
  constructor(name: string, args: DnsRecordArgs, opts?: pulumi.CustomResourceOptions) {
    super(dnsRecord, name, args, opts);
  }
}

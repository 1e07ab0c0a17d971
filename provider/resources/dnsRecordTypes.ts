import { isIPv4, isIPv6 } from "node:net";
import { DNS_RECORD_TYPES, type DnsRecordTypeName } from "../schemas/dnsEnums";

/**
 * What each DNS record type takes (core-api-v1.0.0.json DnsRecordTypes and AddDnsRecordModel; the value formats of
 * RFC 1035, 2782, 6844, 6698 and 9460; BunnyWay/terraform-provider-bunnynet internal/provider/resource_dns_record.go
 * for weight ranges, the PullZone record's `pullzone_id` and the Script record's script id, and its issue #48 for
 * hostnames without a trailing dot). Check applies these rules at preview, before any call: a field the type does not
 * use is refused, a field it needs is required, each naming the property.
 */

export type { DnsRecordTypeName };
export const DNS_RECORD_TYPE_NAMES = Object.keys(DNS_RECORD_TYPES) as DnsRecordTypeName[];

/** The inputs that belong to some record types only. */
export const TYPE_SPECIFIC_FIELDS = [
  "weight",
  "priority",
  "port",
  "flags",
  "tag",
  "pullZoneId",
  "scriptId",
  "accelerated",
  "monitorType",
  "smartRoutingType",
  "latencyZone",
  "geolocationLatitude",
  "geolocationLongitude",
] as const;
export type TypeSpecificField = (typeof TYPE_SPECIFIC_FIELDS)[number];

interface Range {
  min: number;
  max: number;
}

interface FieldRule {
  required?: boolean;
  range?: Range;
}

interface TypeRule {
  /** How `value` is checked; "none" for types whose target is another input (PullZone, Script). */
  value: ((v: string) => string | undefined) | "none";
  fields: Partial<Record<TypeSpecificField, FieldRule>>;
}

const U16: Range = { min: 0, max: 65535 };
const PERCENT: Range = { min: 0, max: 100 };
const HOST_LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/i;

function hostnameProblem(v: string): string | undefined {
  if (v.endsWith(".")) return "must be a hostname without a trailing dot (bunny.net adds it)";
  if (v.length > 253 || !v.split(".").every((l) => HOST_LABEL.test(l))) return "must be a hostname (labels of letters, digits, '-' or '_', separated by dots)";
  return undefined;
}

const ipv4 = (v: string) => (isIPv4(v) ? undefined : "must be an IPv4 address");
const ipv6 = (v: string) => (isIPv6(v) ? undefined : "must be an IPv6 address");
const nonEmpty = (v: string) => (v.length > 0 ? undefined : "must not be empty");
const mxTarget = (v: string) => (v === "." ? undefined : hostnameProblem(v));
const url = (v: string) => (/^https?:\/\/[^\s/]+/i.test(v) ? undefined : "must be an http:// or https:// URL");
const tlsa = (v: string) => (/^\d{1,3} \d{1,3} \d{1,3} [0-9a-f]+$/i.test(v) ? undefined : "must be 'usage selector matchingType certificateData' (RFC 6698, e.g. '3 1 1 ab12…')");
const txt = (v: string) => (v.length <= 65535 ? undefined : "must be at most 65535 characters");

/** Smart routing, monitoring and CDN acceleration: the address-like types. */
const routing: TypeRule["fields"] = {
  accelerated: {},
  monitorType: {},
  smartRoutingType: {},
  latencyZone: {},
  geolocationLatitude: {},
  geolocationLongitude: {},
};

export const RECORD_TYPE_RULES: Record<DnsRecordTypeName, TypeRule> = {
  A: { value: ipv4, fields: { weight: { range: PERCENT }, ...routing } },
  AAAA: { value: ipv6, fields: { weight: { range: PERCENT }, ...routing } },
  CNAME: { value: hostnameProblem, fields: { weight: { range: PERCENT }, ...routing } },
  TXT: { value: txt, fields: {} },
  MX: { value: mxTarget, fields: { priority: { required: true, range: U16 } } },
  Redirect: { value: url, fields: {} },
  Flatten: { value: hostnameProblem, fields: {} },
  PullZone: { value: "none", fields: { pullZoneId: { required: true } } },
  SRV: { value: hostnameProblem, fields: { priority: { required: true, range: U16 }, weight: { required: true, range: U16 }, port: { required: true, range: U16 } } },
  CAA: { value: nonEmpty, fields: { flags: { range: { min: 0, max: 255 } }, tag: { required: true } } },
  PTR: { value: hostnameProblem, fields: {} },
  Script: { value: "none", fields: { scriptId: { required: true } } },
  NS: { value: hostnameProblem, fields: {} },
  SVCB: { value: nonEmpty, fields: { priority: { required: true, range: U16 } } },
  HTTPS: { value: nonEmpty, fields: { priority: { required: true, range: U16 } } },
  TLSA: { value: tlsa, fields: {} },
};

/** The type's name from a name (any case) or the API's number; undefined when it is neither. */
export function recordTypeName(value: unknown): DnsRecordTypeName | undefined {
  if (typeof value === "number") return DNS_RECORD_TYPE_NAMES.find((n) => DNS_RECORD_TYPES[n] === value);
  if (typeof value !== "string") return undefined;
  return DNS_RECORD_TYPE_NAMES.find((n) => n.toLowerCase() === value.toLowerCase());
}

/** Whether the type uses the field. */
export function typeUses(type: DnsRecordTypeName, field: TypeSpecificField): boolean {
  return field in RECORD_TYPE_RULES[type].fields;
}

const CAA_TAG = /^[a-z0-9]{1,15}$/i;

/**
 * The rules of the record's type, on inputs the schema accepted. `unknown` names the inputs not known yet (preview):
 * they are not judged, and with an unknown type nothing type-specific is.
 */
export function typeFailures(inputs: Record<string, unknown>, unknown: ReadonlySet<string>): { property: string; reason: string }[] {
  if (unknown.has("type")) return [];
  const type = inputs.type as DnsRecordTypeName;
  const rule = RECORD_TYPE_RULES[type];
  const failures: { property: string; reason: string }[] = [];
  const users = (field: TypeSpecificField) =>
    DNS_RECORD_TYPE_NAMES.filter((t) => typeUses(t, field)).join(", ");
  for (const field of TYPE_SPECIFIC_FIELDS) {
    const fieldRule = rule.fields[field];
    const value = inputs[field];
    if (unknown.has(field)) continue;
    if (!fieldRule) {
      if (value !== undefined) failures.push({ property: field, reason: `is not used by ${type} records (only by ${users(field)})` });
      continue;
    }
    if (value === undefined) {
      if (fieldRule.required) failures.push({ property: field, reason: `is required for ${type} records` });
      continue;
    }
    const range = fieldRule.range;
    if (range && typeof value === "number" && (value < range.min || value > range.max)) {
      failures.push({ property: field, reason: `must be between ${range.min} and ${range.max} for ${type} records` });
    }
  }
  if (type === "CAA" && typeof inputs.tag === "string" && !CAA_TAG.test(inputs.tag)) {
    failures.push({ property: "tag", reason: "must be a CAA property tag such as issue, issuewild or iodef (letters and digits)" });
  }
  if (!unknown.has("value")) {
    const value = inputs.value;
    if (rule.value === "none") {
      if (value !== undefined) failures.push({ property: "value", reason: `is not used by ${type} records: the target is ${type === "PullZone" ? "pullZoneId" : "scriptId"}` });
    } else if (value === undefined) {
      failures.push({ property: "value", reason: `is required for ${type} records` });
    } else {
      const problem = rule.value(String(value));
      if (problem) failures.push({ property: "value", reason: `${problem} for ${type} records` });
    }
  }
  return failures;
}

/** An enum's name for the API's number (`nameOf(DNS_MONITOR_TYPES, 1)`), or the number as text when it has none. */
export function nameOf(values: Record<string, number>, n: number): string {
  return Object.keys(values).find((k) => values[k] === n) ?? String(n);
}

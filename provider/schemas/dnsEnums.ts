/**
 * DNS enums as named constants (the API's numbers: core-api-v1.0.0.json DnsRecordTypes, DnsMonitoringType,
 * DnsSmartRoutingType, LogAnonymizationType, PrivateKeyType). Plain values without schemas, so public declarations
 * can name them; schemas/dns.ts builds its checks from them.
 */

/** DnsRecordTypes: the record types by name, with the number the API uses. */
export const DNS_RECORD_TYPES = {
  A: 0,
  AAAA: 1,
  CNAME: 2,
  TXT: 3,
  MX: 4,
  Redirect: 5,
  Flatten: 6,
  PullZone: 7,
  SRV: 8,
  CAA: 9,
  PTR: 10,
  Script: 11,
  NS: 12,
  SVCB: 13,
  HTTPS: 14,
  TLSA: 15,
} as const;

/** DnsMonitoringType. */
export const DNS_MONITOR_TYPES = { None: 0, Ping: 1, Http: 2, Monitor: 3 } as const;
/** DnsSmartRoutingType. */
export const DNS_SMART_ROUTING_TYPES = { None: 0, Latency: 1, Geolocation: 2 } as const;
/** LogAnonymizationType. */
export const DNS_LOG_ANONYMIZATION_TYPES = { OneDigit: 0, Drop: 1 } as const;
/** PrivateKeyType (the key of the zone's automatic wildcard certificates). */
export const DNS_CERTIFICATE_KEY_TYPES = { Ecdsa: 0, Rsa: 1 } as const;

/** A record type by name. */
export type DnsRecordTypeName = keyof typeof DNS_RECORD_TYPES;
/** A record type's number (0..15). */
export type DnsRecordTypeNumber = (typeof DNS_RECORD_TYPES)[DnsRecordTypeName];
/** A record type as a program gives it: its name (as written, or all lower or upper case) or its number. */
export type DnsRecordType = DnsRecordTypeName | Lowercase<DnsRecordTypeName> | Uppercase<DnsRecordTypeName> | DnsRecordTypeNumber;

import { z } from "zod";
import { answerObject, nullishFlag, nullishNumber, nullishText, withFallback } from "./common";
import { DNS_CERTIFICATE_KEY_TYPES, DNS_LOG_ANONYMIZATION_TYPES, DNS_MONITOR_TYPES, DNS_RECORD_TYPES, DNS_SMART_ROUTING_TYPES } from "./dnsEnums";

/**
 * DNS zones and their records (core-api-v1.0.0.json: DnsZoneAddModel, UpdateDnsZoneModel, DnsZoneModel,
 * PaginationListModelOfDnsZoneModel, AddDnsRecordModel, UpdateDnsRecordModel, DnsRecordModel, DnsRecordTypes,
 * DnsMonitoringType, DnsSmartRoutingType, LogAnonymizationType, PrivateKeyType). Request schemas are strict (the
 * models have `additionalProperties: false`); responses are tolerant (see common.ts).
 */

const int32 = z.number().int().min(-2147483648).max(2147483647);
const int64 = z.number().int();
const enumNumber = <T extends Record<string, number>>(values: T) => z.number().int().refine((n) => Object.values(values).includes(n), "must be one of the documented values");

/** `POST /dnszone` (DnsZoneAddModel). The optional initial `Records` are not sent by this package. */
export const AddDnsZoneRequestSchema = z.object({ Domain: z.string().min(1) }).strict();

/** `POST /dnszone/{id}` (UpdateDnsZoneModel): a field left out keeps its value. */
export const UpdateDnsZoneRequestSchema = z
  .object({
    CustomNameserversEnabled: z.boolean().nullish(),
    Nameserver1: z.string().nullish(),
    Nameserver2: z.string().nullish(),
    SoaEmail: z.string().nullish(),
    LoggingEnabled: z.boolean().nullish(),
    LogAnonymizationType: enumNumber(DNS_LOG_ANONYMIZATION_TYPES).nullish(),
    CertificateKeyType: enumNumber(DNS_CERTIFICATE_KEY_TYPES).nullish(),
    LoggingIPAnonymizationEnabled: z.boolean().nullish(),
  })
  .strict();

const recordRequestShape = {
  Type: enumNumber(DNS_RECORD_TYPES).nullish(),
  Ttl: int32.nullish(),
  Value: z.string().nullish(),
  Name: z.string().nullish(),
  Weight: int32.nullish(),
  Priority: int32.nullish(),
  Flags: z.number().int().min(0).max(255).nullish(),
  Tag: z.string().nullish(),
  Port: int32.nullish(),
  PullZoneId: int64.nullish(),
  ScriptId: int64.nullish(),
  Accelerated: z.boolean().nullish(),
  MonitorType: enumNumber(DNS_MONITOR_TYPES).nullish(),
  GeolocationLatitude: z.number().nullish(),
  GeolocationLongitude: z.number().nullish(),
  LatencyZone: z.string().nullish(),
  SmartRoutingType: enumNumber(DNS_SMART_ROUTING_TYPES).nullish(),
  Disabled: z.boolean().nullish(),
  Comment: z.string().nullish(),
  AutoSslIssuance: z.boolean().nullish(),
};

/** `PUT /dnszone/{zoneId}/records` (AddDnsRecordModel). */
export const AddDnsRecordRequestSchema = z.object(recordRequestShape).strict();

/** `POST /dnszone/{zoneId}/records/{id}` (UpdateDnsRecordModel): answers 204 without a body. */
export const UpdateDnsRecordRequestSchema = z.object({ ...recordRequestShape, Id: int64.optional() }).strict();

const text = nullishText;
const num = nullishNumber;
const flag = nullishFlag;

/** DnsRecordModel, as read. For a PullZone record `LinkName` holds the pull zone's id (Terraform's resource_dns_record.go reads it so). */
export const DnsRecordSchema = answerObject({
  Id: z.number(),
  Type: z.number(),
  Ttl: num,
  Value: text,
  Name: text,
  Weight: num,
  Priority: num,
  Port: num,
  Flags: num,
  Tag: text,
  Accelerated: flag,
  AcceleratedPullZoneId: num,
  LinkName: text,
  MonitorType: num,
  GeolocationLatitude: num,
  GeolocationLongitude: num,
  LatencyZone: text,
  SmartRoutingType: num,
  Disabled: flag,
  Comment: text,
});

/** DnsZoneModel, as read. */
export const DnsZoneSchema = answerObject({
  Id: z.number(),
  Domain: text,
  Records: withFallback(z.array(DnsRecordSchema), () => []),
  CustomNameserversEnabled: flag,
  Nameserver1: text,
  Nameserver2: text,
  SoaEmail: text,
  NameserversDetected: flag,
  LoggingEnabled: flag,
  LoggingIPAnonymizationEnabled: flag,
  LogAnonymizationType: num,
  DnsSecEnabled: flag,
  CertificateKeyType: num,
});

/** `GET /dnszone` query: page from 1, perPage 5..1000 (the same bounds as every core listing), `search` by domain. */
export const DnsZoneListQuerySchema = z
  .object({
    page: z.number().int().min(1).max(2147483647).default(1),
    perPage: z.number().int().min(5).max(1000).default(1000),
    search: z.string().max(255).optional(),
  })
  .strict();

/** PaginationListModelOfDnsZoneModel. */
export const DnsZonePageSchema = answerObject({
  Items: withFallback(z.array(DnsZoneSchema), () => []),
  CurrentPage: z.number(),
  TotalItems: z.number(),
  HasMoreItems: z.boolean(),
});

/** DnsSecDsRecordModel: the answer of `POST` and `DELETE /dnszone/{id}/dnssec`. */
export const DnsSecDsRecordSchema = answerObject({
  Enabled: flag,
  DsRecord: text,
  Digest: text,
  DigestType: text,
  Algorithm: num,
  PublicKey: text,
  KeyTag: num,
  Flags: num,
});

export type DnsSecDsRecord = z.output<typeof DnsSecDsRecordSchema>;
export type AddDnsZoneRequest = z.input<typeof AddDnsZoneRequestSchema>;
export type UpdateDnsZoneRequest = z.input<typeof UpdateDnsZoneRequestSchema>;
export type AddDnsRecordRequest = z.input<typeof AddDnsRecordRequestSchema>;
export type UpdateDnsRecordRequest = z.input<typeof UpdateDnsRecordRequestSchema>;
export type DnsRecord = z.output<typeof DnsRecordSchema>;
export type DnsZone = z.output<typeof DnsZoneSchema>;
export type DnsZoneListQuery = z.input<typeof DnsZoneListQuerySchema>;
export type DnsZonePage = z.output<typeof DnsZonePageSchema>;

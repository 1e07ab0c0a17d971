import { isIPv4, isIPv6 } from "node:net";
import { COUNTRY_CODES } from "../schemas/countryCodes";
import { AccessListType } from "../schemas/shieldEnums";

/**
 * What an access list's entries must be, by the list's type (AccessListType, shield-api-v1.0.0.json: IP, CIDR, ASN,
 * Country, Organization, JA4). The document types the content only as text, one entry a line; what each type holds
 * is read from the type's name:
 * - IP: one IPv4 or IPv6 address (no zone index: `fe80::1%eth0` names an interface of one machine);
 * - CIDR: an address, `/` and a prefix length within its family (0..32, 0..128);
 * - ASN: an autonomous system number (1..4294967295, RFC 6793), with or without `AS` before it;
 * - Country: an ISO 3166-1 alpha-2 code in upper case (schemas/countryCodes.ts).
 * Organization names and JA4 fingerprints are taken as written.
 */

const COUNTRIES = new Set(COUNTRY_CODES);
const MAX_ASN = 4_294_967_295;

const isAddress = (v: string) => !v.includes("%") && (isIPv4(v) || isIPv6(v));

function isCidr(v: string): boolean {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(v);
  if (!match || match[1].includes("%")) return false;
  const prefix = Number(match[2]);
  return (isIPv4(match[1]) && prefix <= 32) || (isIPv6(match[1]) && prefix <= 128);
}

function isAsn(v: string): boolean {
  const match = /^(?:AS)?(\d{1,10})$/i.exec(v);
  return match !== null && Number(match[1]) >= 1 && Number(match[1]) <= MAX_ASN;
}

/** Each checked type's rule, and what its entries must be, in a sentence's words. */
const RULES: Partial<Record<number, { valid: (entry: string) => boolean; expected: string }>> = {
  [AccessListType.IP]: { valid: isAddress, expected: "an IP address, such as 192.0.2.1 or 2001:db8::1" },
  [AccessListType.CIDR]: { valid: isCidr, expected: "a CIDR range (an address, / and a prefix length), such as 192.0.2.0/24 or 2001:db8::/32" },
  [AccessListType.ASN]: { valid: isAsn, expected: "an autonomous system number (1..4294967295), such as 13335 or AS13335" },
  [AccessListType.Country]: { valid: (v) => COUNTRIES.has(v), expected: "an ISO 3166-1 alpha-2 country code in upper case, such as DE or US" },
};

/** Why these entries cannot be in a list of that type (the first few named), or undefined. */
export function accessListEntriesProblem(type: number, entries: readonly string[]): string | undefined {
  const rule = RULES[type];
  const wrong = rule ? entries.filter((e) => !rule.valid(e)) : [];
  if (!rule || wrong.length === 0) return undefined;
  const named = wrong.slice(0, 3).map((e) => JSON.stringify(e)).join(", ");
  const more = wrong.length > 3 ? ` and ${wrong.length - 3} more` : "";
  const typeName = Object.entries(AccessListType).find(([, n]) => n === type)?.[0];
  return `${named}${more} ${wrong.length === 1 ? "is" : "are"} not valid in a list of type ${typeName}: each entry must be ${rule.expected}`;
}

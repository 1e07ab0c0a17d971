import { isIP } from "node:net";
import { ISO_COUNTRY_CODES } from "./countryCodes";

/**
 * The form of a custom access list's entries, by the list's type (AccessListType of shield-api-v1.0.0.json: 0 IP,
 * 1 CIDR, 2 ASN, 3 Country, 4 Organization, 5 JA4). The document types `content` as text, one entry a line, and names
 * what each type holds; the emulator reads the names (a decision: emulator/README.md):
 * - IP: an IPv4 or IPv6 address, without a zone index;
 * - CIDR: an address with a prefix length its family allows (/0../32, /0../128);
 * - ASN: a 32-bit AS number above 0, `AS` before it or not;
 * - Country: an assigned ISO 3166-1 alpha-2 code, upper case;
 * - Organization and JA4: any text.
 */

const checks: Record<number, { test: (entry: string) => boolean; wanted: string }> = {
  0: { test: (e) => !e.includes("%") && isIP(e) !== 0, wanted: "an IP address" },
  1: {
    test: (e) => {
      const slash = e.lastIndexOf("/");
      const family = slash > 0 && !e.includes("%") ? isIP(e.slice(0, slash)) : 0;
      const bits = e.slice(slash + 1);
      return family !== 0 && /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
    },
    wanted: "a CIDR range",
  },
  2: {
    test: (e) => {
      const digits = /^(?:as)?(\d{1,10})$/i.exec(e)?.[1];
      return digits !== undefined && Number(digits) > 0 && Number(digits) < 2 ** 32;
    },
    wanted: "an AS number",
  },
  3: { test: (e) => ISO_COUNTRY_CODES.has(e), wanted: "an ISO 3166-1 alpha-2 country code" },
};

/** The first entry of `entries` that a list of `type` cannot hold, with why; undefined when all can. */
export function badAccessListEntry(type: number, entries: string[]): string | undefined {
  const check = checks[type];
  const bad = check && entries.find((e) => !check.test(e));
  return bad === undefined ? undefined : `content: ${JSON.stringify(bad)} is not ${check.wanted}`;
}

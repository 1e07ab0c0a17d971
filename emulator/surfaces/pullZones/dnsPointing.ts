import type { Store } from "../../store";
import { dnsTargetsOf } from "../dns/routes";
import type { PullZoneRecord } from "./records";

/**
 * Whether a hostname's DNS points at a pull zone, as bunny.net decides before it issues a free certificate: the
 * Terraform provider's hostname acceptance test (BunnyWay/terraform-provider-bunnynet,
 * internal/provider/resource_pullzone_hostname_test.go, step 4) expects `The domain … is not pointing to our servers.`
 * for a name that does not, and its issue #7 is the same refusal seen as `loadFreeCertificate failed with 400`.
 *
 * The emulator can only know the DNS of the zones the account hosts on bunny.net itself. For a name in one of them,
 * it points here when a record at that name is a CNAME to the pull zone's `<name>.b-cdn.net`, a PullZone record of
 * that zone, or an A/AAAA record to the address the emulator's pull zones answer at (`PULL_ZONE_ADDRESSES`, from the
 * documentation ranges: the real edge addresses are not published). A name outside every DNS zone of the account is
 * not judged (undefined): its DNS lives elsewhere, and `POST /_emulator/dns-pending` stands in for it; except a
 * name under a special-use domain that public DNS never answers (`NEVER_IN_PUBLIC_DNS`), which cannot point anywhere:
 * the Terraform test's own hostname, `test-acceptance-….terraform.internal`, is refused so by the real API.
 */
export const PULL_ZONE_ADDRESSES: readonly string[] = ["198.51.100.80", "2001:db8::80"];

/**
 * Domains no public resolver answers: `.invalid`, `.localhost` (RFC 6761 §6.4, §6.3), `.local` (RFC 6762),
 * `.home.arpa` (RFC 8375), `.alt` (RFC 9476) and `.internal` (reserved for private use by ICANN in 2024). `.test` and
 * `.example` (RFC 6761 too) are left out on purpose: the emulator's fixtures and users' tests use them for names on
 * the public internet.
 */
const NEVER_IN_PUBLIC_DNS = /\.(?:invalid|localhost|local|home\.arpa|alt|internal)$/i;

export function pointsAtPullZone(store: Store, hostname: string, zone: PullZoneRecord): boolean | undefined {
  if (NEVER_IN_PUBLIC_DNS.test(hostname)) return false;
  const dns = dnsTargetsOf(store, hostname);
  if (!dns.zoneFound) return undefined;
  const cdnHostname = `${zone.Name}.b-cdn.net`.toLowerCase();
  return dns.records.some((record) => {
    switch (record.type) {
      case "CNAME":
        return record.value.trim().toLowerCase().replace(/\.$/, "") === cdnHostname;
      case "PullZone":
        return record.pullZoneId === zone.Id;
      case "A":
      case "AAAA":
        return PULL_ZONE_ADDRESSES.includes(record.value.trim().toLowerCase());
      default:
        return false;
    }
  });
}

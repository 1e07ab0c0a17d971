import type { Store } from "./store";
import { PULL_ZONE, type PullZoneRecord } from "./surfaces/pullZones/records";
import { RULE } from "./surfaces/shield";
import { WAF_RULE } from "./surfaces/shieldWafRules";

/**
 * Lost concurrent writes (`loseConcurrentWrites` in `POST /_emulator/faults`): two writes to one zone that overlap
 * in time, the later one refused and not stored.
 *
 * The evidence, in bunny.net's Terraform provider (BunnyWay/terraform-provider-bunnynet): issue #64, five WAF rules of
 * one pull zone applied at Terraform's default parallelism, only two created, the others answered with an error
 * ("Unable to create waf rule"), which ones at random; issue #6, writes of several resources to one pull zone
 * deadlocked. Both were fixed there with a lock per pull zone held around each create and delete call
 * (internal/provider/resource_pullzone_waf_rule.go `pzWafRuleMutex`; resource_pullzone.go `pullzoneMutex`, 0.3.10 and
 * 0.11.6). So the API refuses the overlapping write, with an error, as a deadlocked transaction does (a 500: the
 * caller cannot tell whether it acted, so a create is looked up before it is sent again); no report shows a write
 * answered success and then missing, so none is modelled. (#64's reporter also saw rules fail from the third one when
 * adding them one at a time, which a plan's rule limit would explain too; the maintainers' answer was still the lock.)
 *
 * What overlaps: a write holds its zone from the moment it is routed until its answer is sent, and first waits
 * `concurrentWriteWindowMs` (the server's transaction, long enough for a client's concurrent writes to meet). A
 * write to a zone already held is refused at once. The zones, as the requests name them:
 * - `pullzone:<id>`: every write under `/pullzone/<id>` (settings, hostnames, certificates, force-SSL, delete), the
 *   free certificate of a hostname on that zone (`GET /pullzone/loadFreeCertificate` changes the zone), and the
 *   creation of the pull zone's Shield zone (`POST /shield/shield-zone` names the pull zone);
 * - `shieldzone:<id>`: the Shield zone's settings (`PATCH /shield/shield-zone`) and its rate-limit rules (create names
 *   the zone; update and delete name the rule, whose zone the store knows), its custom WAF rules (the same way) and
 *   everything under `/shield/shield-zone/<id>/` (access lists and their configurations, bot detection, upload
 *   scanning, custom pages).
 */
export class ConcurrentWrites {
  private enabled = false;
  private windowMs = DEFAULT_WINDOW_MS;
  private readonly held = new Set<string>();
  /** Writes refused because their zone was held. */
  refused = 0;

  configure(options: { loseConcurrentWrites: boolean; concurrentWriteWindowMs: number }): void {
    this.enabled = options.loseConcurrentWrites;
    this.windowMs = options.concurrentWriteWindowMs;
    this.refused = 0;
  }

  describe(): { loseConcurrentWrites: boolean; concurrentWriteWindowMs: number; refused: number } {
    return { loseConcurrentWrites: this.enabled, concurrentWriteWindowMs: this.windowMs, refused: this.refused };
  }

  /** The zone a request writes to while the mode is on, else undefined (reads and other objects are never held). */
  zoneOf(store: Store, request: WriteRequest): string | undefined {
    if (!this.enabled) return undefined;
    return zoneWritten(store, request);
  }

  /**
   * Takes the zone for a write: true when it was free (the write goes on, after the window), false when another
   * write holds it (the write is refused).
   */
  enter(zone: string): boolean {
    if (this.held.has(zone)) {
      this.refused++;
      return false;
    }
    this.held.add(zone);
    return true;
  }

  get window(): number {
    return this.windowMs;
  }

  leave(zone: string): void {
    this.held.delete(zone);
  }
}

/** Long enough for writes a client sends at once to overlap, short enough for a test deploying a site. */
export const DEFAULT_WINDOW_MS = 20;

/** What of a routed request names its zone. */
export interface WriteRequest {
  method: string;
  /** The matched route pattern, e.g. `/pullzone/:id/addHostname`. */
  route: string;
  params: unknown;
  query: unknown;
  body: unknown;
}

function idOf(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

const field = (record: unknown, name: string): unknown => (typeof record === "object" && record !== null ? (record as Record<string, unknown>)[name] : undefined);
const zoneKey = (kind: "pullzone" | "shieldzone", id: number | undefined) => (id === undefined ? undefined : `${kind}:${id}`);

function zoneWritten(store: Store, { method, route, params, query, body }: WriteRequest): string | undefined {
  if (method === "GET") {
    if (route !== "/pullzone/loadFreeCertificate") return undefined;
    const hostname = String(field(query, "hostname") ?? "").toLowerCase();
    const zone = store.list<PullZoneRecord>(PULL_ZONE).find((z) => z.Hostnames.some((h) => h.Value.toLowerCase() === hostname));
    return zoneKey("pullzone", zone?.Id);
  }
  if (route === "/pullzone/:id" || route.startsWith("/pullzone/:id/")) return zoneKey("pullzone", idOf(field(params, "id")));
  if (route === "/shield/shield-zone") return method === "POST" ? zoneKey("pullzone", idOf(field(body, "pullZoneId"))) : zoneKey("shieldzone", idOf(field(body, "shieldZoneId")));
  if (route === "/shield/rate-limit" || route === "/shield/waf/custom-rule") return zoneKey("shieldzone", idOf(field(body, "shieldZoneId")));
  if (route === "/shield/rate-limit/:id" || route === "/shield/waf/custom-rule/:id") {
    const id = idOf(field(params, "id"));
    const kind = route.startsWith("/shield/rate-limit") ? RULE : WAF_RULE;
    return zoneKey("shieldzone", id === undefined ? undefined : store.get<{ shieldZoneId: number }>(kind, id)?.shieldZoneId);
  }
  if (route.startsWith("/shield/shield-zone/:shieldZoneId/")) return zoneKey("shieldzone", idOf(field(params, "shieldZoneId")));
  return undefined;
}

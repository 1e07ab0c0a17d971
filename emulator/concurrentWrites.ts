import type { Store } from "./store";
import { WAF_RULE } from "./surfaces/shieldWafRules";

/**
 * Lost concurrent writes (`loseConcurrentWrites` in `POST /_emulator/faults`): two writes to one zone that overlap
 * in time, the later one refused and not stored. Only the writes that public evidence shows lost are held; the others
 * are shown safe or nothing reports them lost, so they are never refused.
 *
 * The evidence, in bunny.net's Terraform provider (BunnyWay/terraform-provider-bunnynet, whose maintainers work at
 * bunny.net) and in the older community provider (simplesurance/terraform-provider-bunny):
 * - A pull zone's edge rules (`POST /pullzone/<id>/edgerules/addOrUpdate`, `DELETE /pullzone/<id>/edgerules/<guid>`):
 *   "as confirmed by the bunny.net support, the Add/Update Edge Rule API endpoint is currently not concurrency safe"
 *   (simplesurance PR #32: its acceptance test lost a rule in about 25% of runs); BunnyWay issue #6 (applies hanging on
 *   edge rules) and its fix, a lock per pull zone (`pzMutex`, internal/provider/utils.go; 0.3.10, "creating multiple
 *   edgerules for the same pullzone causes inconsistencies"), held around every edge rule write.
 * - A pull zone's settings and its delete (`POST /pullzone/<id>`, `DELETE /pullzone/<id>`): held under the same lock
 *   (resource_pullzone.go Update, Delete), as are optimizer classes, which are written as the whole settings
 *   (resource_pullzone_optimizer_class.go: read the zone, send its class list back).
 * - Creating pull zones (`POST /pullzone`), account-wide: "create multiple at once throws 502 Bad Gateway", fixed
 *   with the same lock under a key of its own around every create (resource_pullzone.go Create, `pzMutex.Lock(0)`;
 *   0.4.2, 2024-12-09). Refused with a 502, as reported.
 * - A Shield zone's custom WAF rules (`POST /shield/waf/custom-rule`, `PATCH|DELETE /shield/waf/custom-rule/<id>`):
 *   issue #64, five rules of one zone applied at Terraform's default parallelism, two created, the others answered
 *   "Unable to create waf rule", which ones at random; fixed with a lock of its own per pull zone (`pzWafRuleMutex`,
 *   resource_pullzone_waf_rule.go; 0.11.6). (#64's reporter also saw rules fail from the third one when adding them
 *   one at a time, which a plan's rule limit would explain too; the maintainers' answer was still the lock.)
 *
 * Not held: a pull zone's hostnames, certificates and force-SSL (their own endpoints, each adding or removing one
 * item; neither Terraform provider locks them, and simplesurance's acceptance test TestAccHostname_addRemove adds three
 * hostnames to one zone at once, then swaps all three at once, and finds every one), a cache purge, a Shield zone's
 * creation and settings, its rate-limit rules and access lists (Terraform's resource_pullzone_shield.go,
 * _ratelimit_rule.go and _access_list.go hold no lock: when #64 was fixed in January 2026 the rate-limit rule resource
 * had existed since April 2025 beside the WAF rule resource, and only the WAF rule got one). Nothing reports those lost.
 *
 * How the API fails: the overlapping write is refused with an error, as a deadlocked transaction is (a 500: the caller
 * cannot tell whether it acted, so a create is looked up before it is sent again); no report shows a write answered
 * success and then missing, so none is modelled.
 *
 * What overlaps: a write holds its zone from the moment it is routed until its answer is sent, and first waits
 * `concurrentWriteWindowMs` (the server's transaction, long enough for a client's concurrent writes to meet). A
 * write to a zone already held is refused at once. The zones, as the requests name them:
 * - `pullzone:<id>`: `POST|DELETE /pullzone/<id>` and everything under `/pullzone/<id>/edgerules/`;
 * - `pullzone:creates` (`PULL_ZONE_CREATES`): `POST /pullzone`;
 * - `shieldzone:<id>`: custom WAF rules (create names the zone; update and delete name the rule, whose zone the store
 *   knows).
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

/** The account's pull zone creates, one zone (they meet whatever zone they create). */
export const PULL_ZONE_CREATES = "pullzone:creates";

/** The status an overlapping write is refused with: what the reports show (a 502 for pull zone creates, else an error, a 500). */
export const refusalStatus = (zone: string): number => (zone === PULL_ZONE_CREATES ? 502 : 500);

/** Long enough for writes a client sends at once to overlap, short enough for a test deploying a site. */
export const DEFAULT_WINDOW_MS = 20;

/** What of a routed request names its zone. */
export interface WriteRequest {
  method: string;
  /** The matched route pattern, e.g. `/pullzone/:id/addHostname`. */
  route: string;
  params: unknown;
  body: unknown;
}

function idOf(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

const field = (record: unknown, name: string): unknown => (typeof record === "object" && record !== null ? (record as Record<string, unknown>)[name] : undefined);
const zoneKey = (kind: "pullzone" | "shieldzone", id: number | undefined) => (id === undefined ? undefined : `${kind}:${id}`);

function zoneWritten(store: Store, { method, route, params, body }: WriteRequest): string | undefined {
  if (method === "GET") return undefined;
  if (method === "POST" && route === "/pullzone") return PULL_ZONE_CREATES;
  if (route === "/pullzone/:id" || route.startsWith("/pullzone/:id/edgerules/")) return zoneKey("pullzone", idOf(field(params, "id")));
  if (route === "/shield/waf/custom-rule") return zoneKey("shieldzone", idOf(field(body, "shieldZoneId")));
  if (route === "/shield/waf/custom-rule/:id") {
    const id = idOf(field(params, "id"));
    return zoneKey("shieldzone", id === undefined ? undefined : store.get<{ shieldZoneId: number }>(WAF_RULE, id)?.shieldZoneId);
  }
  return undefined;
}

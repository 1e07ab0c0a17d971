import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Writes to one zone, one at a time, within this process, for the writes bunny.net's API is shown to lose when they
 * overlap; the others go at the engine's parallelism. Which, from the evidence (emulator/concurrentWrites.ts models
 * exactly these):
 * - Serialised, `pullzone:<id>`: a pull zone's settings and delete, its edge rules (EdgeRule) and its optimizer classes
 *   (OptimizerClass, written as the zone's settings). "The Add/Update Edge Rule API endpoint is currently not
 *   concurrency safe", confirmed by bunny.net's support (simplesurance/terraform-provider-bunny PR #32, rules lost in
 *   about a quarter of its acceptance runs); bunny.net's Terraform provider hangs (#6) and loses rules ("creating
 *   multiple edgerules for the same pullzone causes inconsistencies", 0.3.10) without its lock per pull zone, which it
 *   holds around the zone's update and delete and every edge rule and optimizer class write
 *   (BunnyWay/terraform-provider-bunnynet internal/provider/utils.go `pzMutex`).
 * - Serialised, `pullzone:creates`: creating pull zones, account-wide: "create multiple at once throws 502 Bad
 *   Gateway", fixed with the same lock under a key of its own (resource_pullzone.go Create, `pzMutex.Lock(0)`, 0.4.2).
 * - Serialised, `shieldzone:<id>`: a Shield zone's custom WAF rules (WafRule). Five rules applied at once, two created
 *   (#64); fixed with a lock of their own per zone (resource_pullzone_waf_rule.go `pzWafRuleMutex`, 0.11.6).
 * - Not serialised: a pull zone's hostnames, their certificates and force-SSL (PullZoneHostname: endpoints of their
 *   own that add or remove one item; neither Terraform provider locks them, and simplesurance's acceptance test
 *   TestAccHostname_addRemove adds three hostnames to one zone at once, then replaces all three at once, and finds
 *   every one), cache purges, a Shield zone's creation and settings (ShieldZone), its rate-limit rules
 *   (RateLimitRule) and access lists (AccessList): Terraform holds no lock for them (the rate-limit rule resource
 *   existed beside the WAF rule resource when #64 was fixed, and only the WAF rule got a lock), and no report shows
 *   one lost. Were one lost, the API answers an error (the reports show errors, not silent losses): a create is
 *   looked up, then sent again (pulumi/adoption.ts, createOrAdopt), so nothing is stored twice.
 * The Pulumi engine runs up to 4 × the CPUs steps at once by default (pulumi/pulumi pkg/cmd/pulumi/operations/up.go,
 * `defaultParallel`), and a step holds its lane while it waits here: each write held without need is a lane idle
 * (docs/performance.md, the site scale bench).
 *
 * How: the resource framework runs a create, update or delete inside `inZones` (provider/pulumi/writeZones.ts), naming
 * the zones it writes to (a definition's `writeZones`). Every write request sent inside that scope (what
 * sharedReads.ts calls a write, and where it waits: not a GET, or a GET that changes state) waits until the earlier
 * writes of this process to the same zones have been answered (retries included), then is sent. Only writes wait:
 * reads and look-ups run alongside, and reads are shared as before. A request outside any scope (the client used
 * directly) is never held.
 *
 * Zones are named `pullzone:<id>` and `shieldzone:<id>` (see `pullZoneWrites`, `shieldZoneWrites`). Ids are per
 * account; two accounts served by one process that share an id only wait for each other, never lose a write. Several
 * zones are taken in one order (sorted), so two scopes never wait for each other in a cycle.
 */

const scope = new AsyncLocalStorage<readonly string[]>();

/** The zone name of a pull zone's writes. */
export const pullZoneWrites = (pullZoneId: number | string): string => `pullzone:${pullZoneId}`;
/** The account's pull zone creates, one after another. */
export const PULL_ZONE_CREATES = "pullzone:creates";
/** The zone name of a Shield zone's WAF rule writes. */
export const shieldZoneWrites = (shieldZoneId: number | string): string => `shieldzone:${shieldZoneId}`;

/** Runs `fn` with every write it sends serialised per zone of `zones` (none: nothing is held). */
export function inZones<T>(zones: readonly string[], fn: () => Promise<T>): Promise<T> {
  if (zones.length === 0) return fn();
  return scope.run([...new Set(zones)].sort(), fn);
}

/** Sends a write: inside a zone scope, once the earlier writes of this process to its zones have been answered. */
export async function serialisedWrite<R>(send: () => Promise<R>): Promise<R> {
  const zones = scope.getStore();
  if (zones === undefined) return send();
  const release = await zoneQueue.take(zones);
  try {
    return await send();
  } finally {
    release();
  }
}

/**
 * Holders of keys, first come first served: each waits for the one queued before it under the same key. Several keys
 * are taken in the order given (callers sort them), so two holders never wait for each other in a cycle.
 */
export class KeyedQueue {
  /** Per key, the last holder queued: the next one waits for it. Removed when the last one queued finishes. */
  private readonly last = new Map<string, Promise<void>>();

  /** Takes each key in order: waits for the holder queued before, then is the one the next waits for. */
  async take(keys: readonly string[]): Promise<() => void> {
    const releases: (() => void)[] = [];
    for (const key of keys) {
      const before = this.last.get(key);
      let done!: () => void;
      const mine = new Promise<void>((resolve) => (done = resolve));
      this.last.set(key, mine);
      if (before) await before;
      releases.push(() => {
        done();
        if (this.last.get(key) === mine) this.last.delete(key);
      });
    }
    return () => {
      for (const release of releases.reverse()) release();
    };
  }

  /** Runs `fn` holding `key`. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const release = await this.take([key]);
    try {
      return await fn();
    } finally {
      release();
    }
  }
}

/** Each zone's writes, one after another. */
const zoneQueue = new KeyedQueue();

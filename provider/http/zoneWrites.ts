import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Writes to one zone, one at a time, within this process: bunny.net's API loses writes to one pull zone or Shield
 * zone that overlap in time. Five WAF rules of one pull zone applied at once: two created, the others refused
 * (BunnyWay/terraform-provider-bunnynet#64); several resources writing to one pull zone: deadlocks (#6). Terraform's
 * provider fixed both with a lock per pull zone around each create and delete call
 * (internal/provider/resource_pullzone_waf_rule.go, `pzWafRuleMutex`). The Pulumi engine runs up to 4 × the CPUs
 * steps at once by default (pulumi/pulumi pkg/cmd/pulumi/operations/up.go, `defaultParallel`), so a site's
 * hostnames, certificates, Shield zone and rules reach one zone together.
 *
 * How: the resource framework runs a create, update or delete inside `inZones` (provider/pulumi/writeZones.ts), naming
 * the zones it writes to (a definition's `writeZones`). Every write request sent inside that scope (what
 * sharedReads.ts calls a write, and where it waits: not a GET, or a GET that changes state) waits until the earlier
 * writes of this process to the same zones have been answered (retries included), then is sent. Only writes wait:
 * reads, look-ups and waits between writes (a certificate being issued) run alongside, and reads are shared as
 * before. A request outside any scope (the client used directly) is never held.
 *
 * Zones are named `pullzone:<id>` and `shieldzone:<id>` (see `pullZoneWrites`, `shieldZoneWrites`), the way the
 * requests name them: a pull zone's settings, hostnames, certificates and the creation of its Shield zone name the
 * pull zone; the Shield zone's settings and rules name the Shield zone. Ids are per account; two accounts served by
 * one process that share an id only wait for each other, never lose a write. Several zones are taken in one order
 * (sorted), so two scopes never wait for each other in a cycle.
 */

const scope = new AsyncLocalStorage<readonly string[]>();

/** The zone name of a pull zone's writes. */
export const pullZoneWrites = (pullZoneId: number | string): string => `pullzone:${pullZoneId}`;
/** The zone name of a Shield zone's writes. */
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

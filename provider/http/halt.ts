/**
 * A process-wide stop for requests not yet sent. The provider plugin halts them once the Pulumi engine it serves is
 * gone (plugin/engineWatch.ts): whatever it would still send — a create waiting its turn behind the same zone's
 * writes (zoneWrites.ts), a retry, the next request of a create made of several — no state will ever record, so
 * none of it is sent. The transport asks `whyRequestsHalted` right before each attempt; a request already sent is
 * left to finish or fail where it is. Nothing else halts requests: the library and its CLI never call this.
 */

let haltedBecause: string | undefined;
let haltTest: (() => string | undefined) | undefined;

/** From now on every request not yet sent fails, unsent, with `reason`. Never undone. */
export function haltRequests(reason: string): void {
  haltedBecause ??= reason;
}

/**
 * Asks `test` right before each request is sent, synchronously, so that a request is not sent in the moment between
 * a change and the watcher's next look at it: a reason it answers halts requests as `haltRequests` does. It must be
 * cheap (the plugin's tells whether its parent process changed: one system call).
 */
export function haltRequestsWhen(test: () => string | undefined): void {
  haltTest = test;
}

/** Why requests are halted, or undefined while they may be sent. */
export function whyRequestsHalted(): string | undefined {
  if (haltedBecause === undefined && haltTest) {
    const reason = haltTest();
    if (reason !== undefined) haltRequests(reason);
  }
  return haltedBecause;
}

import assert from "node:assert/strict";
import { type Sharing, shared } from "bunnynet-pulumi/dist/http/sharedReads.js";

/**
 * Requests that stay in flight until the test answers them, all on one surface, through the shared-request layer
 * every request takes: a write, or a read of URL `name` (`coalesce`, or `cache` for a parent). `prefix` keeps one
 * test's reads from joining another's (requests in flight are shared by the whole process).
 */
export function heldRequests(prefix = "") {
  const events: string[] = [];
  const answers = new Map<string, () => void>();
  const send = (name: string, sharing: Sharing = "write", object?: string) =>
    shared({ sharing, credential: "c", key: `${prefix} ${sharing === "write" ? "POST" : "GET"} ${name}`, surface: "https://api.test/pullzone", object }, () => {
      events.push(`sent ${name}`);
      return new Promise<{ status: number; name: string }>((resolve) =>
        answers.set(name, () => {
          events.push(`answered ${name}`);
          resolve({ status: 200, name });
        }),
      );
    }).then((r) => r.name);
  const answer = (name: string) => {
    const done = answers.get(name);
    assert.ok(done, `${name} was sent`);
    answers.delete(name);
    done();
  };
  return { events, send, answer };
}

/** Lets every pending promise callback run (no timers involved). */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

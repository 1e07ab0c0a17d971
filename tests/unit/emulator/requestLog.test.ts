import assert from "node:assert/strict";
import { RequestLog, type RequestLogEntry } from "bunnynet-emulator/dist/requestLog.js";
import { loggedUrl } from "bunnynet-emulator/dist/server.js";

/** The emulator's request log keeps the newest entries, in order, and never a URL's credentials. */
const entry = (url: string): Omit<RequestLogEntry, "seq"> => ({ time: "2026-01-01T00:00:00.000Z", method: "GET", url, route: url, status: 200, durationMs: 1, auth: "none" });

describe("unit: emulator request log", () => {
  it("keeps the newest `capacity` entries, in order, however many came before", () => {
    const log = new RequestLog(5);
    for (let n = 1; n <= 23; n++) {
      log.add(entry(`/r/${n}`));
      const kept = log.since().map((e) => e.seq);
      const oldest = Math.max(1, n - 4);
      assert.deepEqual(kept, Array.from({ length: n - oldest + 1 }, (_, i) => oldest + i), `after ${n} entries`);
    }
    assert.deepEqual(
      log.since(20).map((e) => e.url),
      ["/r/21", "/r/22", "/r/23"],
    );
    assert.deepEqual(log.since(23), []);
    assert.equal(log.lastSeq, 23);
  });

  it("after clear, holds only what came since, numbered on", () => {
    const log = new RequestLog(3);
    for (let n = 1; n <= 7; n++) log.add(entry(`/r/${n}`));
    log.clear();
    assert.deepEqual(log.since(), []);
    log.add(entry("/after"));
    assert.deepEqual(
      log.since().map((e) => [e.seq, e.url]),
      [[8, "/after"]],
    );
  });

  it("logs a query's URL value without its query, encoded or not, and other URLs as they came", () => {
    assert.equal(loggedUrl("/videolibrary/1/videos/2/thumbnail?thumbnailUrl=https://cdn.example/a.jpg?token=s3cret"), "/videolibrary/1/videos/2/thumbnail?thumbnailUrl=https%3A%2F%2Fcdn.example%2Fa.jpg%3F%5Bredacted%5D");
    assert.equal(loggedUrl("/x?u=https%3A%2F%2Fuser%3Apw%40cdn.example%2Fa.jpg"), "/x?u=https%3A%2F%2Fcdn.example%2Fa.jpg");
    assert.equal(loggedUrl("/pullzone?page=1&perPage=1000"), "/pullzone?page=1&perPage=1000");
    assert.equal(loggedUrl("/x?u=https://cdn.example/a.jpg"), "/x?u=https://cdn.example/a.jpg");
    assert.equal(loggedUrl("/pullzone/1"), "/pullzone/1");
  });
});

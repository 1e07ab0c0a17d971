import assert from "node:assert/strict";
import { shared } from "bunnynet-pulumi/dist/http/sharedReads.js";
import { inZones, pullZoneWrites, shieldZoneWrites } from "bunnynet-pulumi/dist/http/zoneWrites.js";
import { heldRequests, settle } from "./heldRequests";

describe("zoneWrites: a resource's writes serialised per zone (http/zoneWrites.ts)", () => {
  it("writes to one zone are sent one at a time, in the order asked, each after the one before is answered", async () => {
    const { events, send, answer } = heldRequests();
    const zone = [pullZoneWrites(7)];
    const all = ["a", "b", "c"].map((name) => inZones(zone, () => send(name)));
    await settle();
    assert.deepEqual(events, ["sent a"]);
    answer("a");
    await settle();
    answer("b");
    await settle();
    answer("c");
    assert.deepEqual(await Promise.all(all), ["a", "b", "c"]);
    assert.deepEqual(events, ["sent a", "answered a", "sent b", "answered b", "sent c", "answered c"]);
  });

  it("reads in the zone's scope, writes to other zones and writes outside any zone scope are never held", async () => {
    const { events, send, answer } = heldRequests();
    const first = inZones([pullZoneWrites(7)], () => send("zone 7"));
    const read = inZones([pullZoneWrites(7)], () => send("read of 7", "coalesce"));
    const other = inZones([shieldZoneWrites(7)], () => send("shield zone 7"));
    const direct = send("client used directly");
    await settle();
    // All four in flight at once.
    assert.deepEqual([...events].sort(), ["sent client used directly", "sent read of 7", "sent shield zone 7", "sent zone 7"]);
    for (const name of ["zone 7", "read of 7", "shield zone 7", "client used directly"]) answer(name);
    await Promise.all([first, read, other, direct]);
  });

  it("a failed write frees its zone for the next", async () => {
    const zone = [shieldZoneWrites(3)];
    const request = { sharing: "write" as const, credential: "c", key: "PATCH x", surface: "https://api.test/shield" };
    await assert.rejects(inZones(zone, () => shared(request, () => Promise.reject(new Error("refused")))), /refused/);
    assert.deepEqual(await inZones(zone, () => shared(request, () => Promise.resolve({ status: 204 }))), { status: 204 });
  });

  it("scopes naming several zones take them in one order, so two never wait for each other", async () => {
    const { events, send, answer } = heldRequests();
    const ab = inZones([pullZoneWrites(1), shieldZoneWrites(2)], () => send("ab"));
    const ba = inZones([shieldZoneWrites(2), pullZoneWrites(1)], () => send("ba"));
    await settle();
    assert.deepEqual(events, ["sent ab"]);
    answer("ab");
    await settle();
    answer("ba");
    assert.deepEqual(await Promise.all([ab, ba]), ["ab", "ba"]);
  });
});

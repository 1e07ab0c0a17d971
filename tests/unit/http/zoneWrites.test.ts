import assert from "node:assert/strict";
import { inZones, pullZoneWrites, serialisedWrite, shieldZoneWrites } from "bunnynet-pulumi/dist/http/zoneWrites.js";

/** A write that stays in flight until the test lets it finish, and records when it was sent and answered. */
function heldWrites() {
  const events: string[] = [];
  const finishers = new Map<string, () => void>();
  const write = (name: string) => () => {
    events.push(`sent ${name}`);
    return new Promise<string>((resolve) =>
      finishers.set(name, () => {
        events.push(`answered ${name}`);
        resolve(name);
      }),
    );
  };
  const finish = (name: string) => {
    const done = finishers.get(name);
    assert.ok(done, `${name} was sent`);
    done();
  };
  return { events, write, finish };
}

/** Lets every pending promise callback run (no timers involved). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("zoneWrites: a resource's writes serialised per zone (http/zoneWrites.ts)", () => {
  it("writes to one zone are sent one at a time, in the order asked, each after the one before is answered", async () => {
    const { events, write, finish } = heldWrites();
    const zone = [pullZoneWrites(7)];
    const all = ["a", "b", "c"].map((name) => inZones(zone, () => serialisedWrite(true, write(name))));
    await settle();
    assert.deepEqual(events, ["sent a"]);
    finish("a");
    await settle();
    finish("b");
    await settle();
    finish("c");
    assert.deepEqual(await Promise.all(all), ["a", "b", "c"]);
    assert.deepEqual(events, ["sent a", "answered a", "sent b", "answered b", "sent c", "answered c"]);
  });

  it("reads, writes to other zones and writes outside any zone scope are never held", async () => {
    const { events, write, finish } = heldWrites();
    const first = inZones([pullZoneWrites(7)], () => serialisedWrite(true, write("zone 7")));
    const read = inZones([pullZoneWrites(7)], () => serialisedWrite(false, write("read of 7")));
    const other = inZones([shieldZoneWrites(7)], () => serialisedWrite(true, write("shield zone 7")));
    const direct = serialisedWrite(true, write("client used directly"));
    await settle();
    // All four in flight at once.
    assert.deepEqual([...events].sort(), ["sent client used directly", "sent read of 7", "sent shield zone 7", "sent zone 7"]);
    for (const name of ["zone 7", "read of 7", "shield zone 7", "client used directly"]) finish(name);
    await Promise.all([first, read, other, direct]);
  });

  it("a failed write frees its zone for the next", async () => {
    const zone = [shieldZoneWrites(3)];
    await assert.rejects(inZones(zone, () => serialisedWrite(true, () => Promise.reject(new Error("refused")))), /refused/);
    assert.equal(await inZones(zone, () => serialisedWrite(true, () => Promise.resolve("next"))), "next");
  });

  it("scopes naming several zones take them in one order, so two never wait for each other", async () => {
    const { events, write, finish } = heldWrites();
    const ab = inZones([pullZoneWrites(1), shieldZoneWrites(2)], () => serialisedWrite(true, write("ab")));
    const ba = inZones([shieldZoneWrites(2), pullZoneWrites(1)], () => serialisedWrite(true, write("ba")));
    await settle();
    assert.deepEqual(events, ["sent ab"]);
    finish("ab");
    await settle();
    finish("ba");
    assert.deepEqual(await Promise.all([ab, ba]), ["ab", "ba"]);
  });
});

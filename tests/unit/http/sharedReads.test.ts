import assert from "node:assert/strict";
import { beginDeployment, inOperation, objectOf } from "bunnynet-pulumi/dist/http/sharedReads.js";
import { heldRequests, settle } from "./heldRequests";

describe("sharedReads: a parent read waits for the writes in flight only when it reads back a write (http/sharedReads.ts)", () => {
  beforeEach(() => beginDeployment());

  it("a look-up inside an operation, before its own first write, is sent while another resource's write is in flight", async () => {
    const { events, send, answer } = heldRequests("look-up");
    const other = inOperation(() => send("other's add", "write"));
    const lookUp = inOperation(() => send("zone 7", "cache"));
    await settle();
    assert.deepEqual(events, ["sent other's add", "sent zone 7"]);
    answer("zone 7");
    answer("other's add");
    assert.deepEqual(await Promise.all([other, lookUp]), ["other's add", "zone 7"]);
  });

  it("a read-back after the operation's own write waits for the writes in flight, and one read serves them all", async () => {
    const { events, send, answer } = heldRequests("read-back");
    const addAndReadBack = (name: string) =>
      inOperation(async () => {
        await send(name, "write");
        return send("zone 7", "cache");
      });
    const [first, second] = [addAndReadBack("add a"), addAndReadBack("add b")];
    await settle();
    answer("add a");
    await settle();
    // a's read-back waits for b's add, still in flight.
    assert.deepEqual(events, ["sent add a", "sent add b", "answered add a"]);
    answer("add b");
    await settle();
    answer("zone 7");
    assert.deepEqual(await Promise.all([first, second]), ["zone 7", "zone 7"]);
    assert.equal(events.filter((e) => e === "sent zone 7").length, 1);
  });

  it("outside any operation (the client used directly), a parent read waits for the writes in flight", async () => {
    const { events, send, answer } = heldRequests("direct");
    const write = send("add", "write");
    const read = send("zone 7", "cache");
    await settle();
    assert.deepEqual(events, ["sent add"]);
    answer("add");
    await settle();
    answer("zone 7");
    assert.deepEqual(await Promise.all([write, read]), ["add", "zone 7"]);
  });

  it("a nested operation is part of the outer one: a write in it makes the outer's later reads read-backs", async () => {
    const { events, send, answer } = heldRequests("nested");
    const outer = inOperation(async () => {
      await inOperation(() => send("inner write", "write"));
      return send("zone 7", "cache");
    });
    const other = send("other's add", "write");
    await settle();
    answer("inner write");
    await settle();
    assert.deepEqual(events, ["sent inner write", "sent other's add", "answered inner write"]);
    answer("other's add");
    await settle();
    answer("zone 7");
    assert.deepEqual(await Promise.all([outer, other]), ["zone 7", "other's add"]);
  });

  it("a read-back waits only for the writes in flight to the object it reads, or naming none", async () => {
    const { events, send, answer } = heldRequests("objects");
    const [zone7, zone8] = ["https://api.test/pullzone/7", "https://api.test/pullzone/8"];
    const readBack = inOperation(async () => {
      await send("add to 7", "write", zone7);
      return send("zone 7", "cache", zone7);
    });
    const otherZone = send("add to 8", "write", zone8);
    const noObject = send("certificate", "write");
    await settle();
    answer("add to 7");
    await settle();
    // Not held by zone 8's add; held by the write that names no zone.
    assert.deepEqual(events, ["sent add to 7", "sent add to 8", "sent certificate", "answered add to 7"]);
    answer("certificate");
    await settle();
    assert.deepEqual(events.slice(4), ["answered certificate", "sent zone 7"]);
    answer("zone 7");
    answer("add to 8");
    assert.deepEqual(await Promise.all([readBack, otherZone, noObject]), ["zone 7", "add to 8", "certificate"]);
  });

  it("objectOf: the path up to its first number, or none", () => {
    assert.equal(objectOf("https://api.bunny.net/pullzone/7/addHostname"), "https://api.bunny.net/pullzone/7");
    assert.equal(objectOf("https://api.bunny.net/pullzone/7"), "https://api.bunny.net/pullzone/7");
    assert.equal(objectOf("https://api.bunny.net/compute/script/9/variables/add"), "https://api.bunny.net/compute/script/9");
    assert.equal(objectOf("https://api.bunny.net/dnszone/5/records/77"), "https://api.bunny.net/dnszone/5");
    assert.equal(objectOf("https://api.bunny.net/pullzone/loadFreeCertificate?hostname=7.example"), undefined);
    assert.equal(objectOf("https://api.bunny.net/shield/rate-limit"), undefined);
  });
});

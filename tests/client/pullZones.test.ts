import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { AlreadyExistsError, InvalidRequestError, NotFoundError, ServerError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";
import type { PullZoneRecord } from "bunnynet-emulator/dist/surfaces/pullZones.js";
import { CertificateProvision } from "bunnynet-pulumi/dist/schemas/pullZones.js";

describe("client: pull zones and hostnames", () => {
  let emu: TestEmulator;
  let zoneId: number;
  let otherZoneId: number;
  const missingZoneId = 999_999;

  before(async () => {
    emu = await startEmulator();
    zoneId = Number(emu.fixtures.pullZoneId);
    otherZoneId = Number(emu.fixtures.loggingDisabledPullZoneId);
  });
  after(() => emu.stop());
  afterEach(() => emu.clearFaults());

  const hostnameCalls = async (action: "addHostname" | "removeHostname") => (await emu.requests()).filter((r) => r.route === `/pullzone/:id/${action}`);

  it("reads a pull zone with its system hostname", async () => {
    const zone = await emu.client().pullZones.getPullZone(zoneId);
    assert.equal(zone.Id, zoneId);
    assert.equal(zone.Name, "emulator-main");
    assert.equal(zone.EnableLogging, true);
    assert.equal(zone.Hostnames.length, 1);
    assert.equal(zone.Hostnames[0].Value, "emulator-main.b-cdn.net");
    assert.equal(zone.Hostnames[0].IsSystemHostname, true);
  });

  it("adds a hostname (lowercased), which then reads back as a custom hostname without a certificate", async () => {
    const client = emu.client();
    await emu.markRequests();
    await client.pullZones.addHostname(zoneId, "CDN.Example.com");
    const calls = await hostnameCalls("addHostname");
    assert.deepEqual(
      calls.map((c) => c.status),
      [204],
    );
    const found = await client.pullZones.findHostname(zoneId, "cdn.example.COM");
    assert.ok(found);
    assert.equal(found.Value, "cdn.example.com");
    assert.equal(found.IsSystemHostname, false);
    assert.equal(found.HasCertificate, false);
    assert.equal(found.ForceSSL, false);
    assert.equal(await client.pullZones.findHostname(zoneId, "other.example.com"), undefined);
  });

  it("refuses a hostname already registered, on the same zone or on any other, as AlreadyExistsError", async () => {
    const client = emu.client();
    await client.pullZones.addHostname(zoneId, "dup.example.com");
    for (const [zone, hostname] of [
      [zoneId, "dup.example.com"],
      [otherZoneId, "DUP.example.com"],
      [otherZoneId, "emulator-main.b-cdn.net"],
    ] as const) {
      await assert.rejects(client.pullZones.addHostname(zone, hostname), (e: unknown) => {
        assert.ok(e instanceof AlreadyExistsError);
        assert.equal(e.status, 400);
        assert.equal(e.errorKey, "pullzone.hostname_already_registered");
        assert.equal(e.field, "Hostname");
        assert.equal(e.serverMessage, "The hostname is already registered");
        return true;
      });
    }
    assert.equal(await client.pullZones.findHostname(otherZoneId, "dup.example.com"), undefined);
  });

  it("refuses malformed hostnames before sending anything, naming the field", async () => {
    const bad = [
      "",
      "https://cdn.example.com",
      "cdn.example.com/assets",
      "cdn.example.com:8443",
      "cdn example.com",
      " cdn.example.com",
      "-cdn.example.com",
      "cdn-.example.com",
      "cdn..example.com",
      "cdn.example.com.",
      "cdn_1.example.com",
      "localhost",
      "192.168.1.10",
      "bücher.example",
      `${"a".repeat(64)}.example.com`,
      `${Array.from({ length: 60 }, () => "abcd").join(".")}.com`,
    ];
    const client = emu.client();
    await emu.markRequests();
    for (const hostname of bad) {
      await assert.rejects(client.pullZones.addHostname(zoneId, hostname), (e: unknown) => e instanceof InvalidRequestError && e.field === "Hostname", `accepted ${JSON.stringify(hostname)}`);
      await assert.rejects(client.pullZones.removeHostname(zoneId, hostname), (e: unknown) => e instanceof InvalidRequestError && e.field === "Hostname");
    }
    assert.deepEqual(await emu.requests(), []);
  });

  it("the emulator itself refuses malformed bodies and hostnames with the core error shape", async () => {
    const http = emu.client().http;
    const path = `/pullzone/${zoneId}/addHostname`;
    const cases: { json: unknown; field: string; key: string }[] = [
      { json: { Hostname: "https://cdn.example.com" }, field: "Hostname", key: "pullzone.hostname_invalid" },
      { json: { Hostname: "" }, field: "Hostname", key: "validation_error" },
      { json: {}, field: "Hostname", key: "validation_error" },
      { json: { Hostname: "ok.example.com", ForceSSL: true }, field: "ForceSSL", key: "validation_error" },
    ];
    for (const c of cases) {
      await assert.rejects(http.request({ api: "core", method: "POST", path, json: c.json }), (e: unknown) => {
        assert.ok(e instanceof ValidationError && !(e instanceof AlreadyExistsError), String(e));
        assert.equal(e.status, 400);
        assert.equal(e.field, c.field);
        assert.equal(e.errorKey, c.key);
        return true;
      });
    }
    const res = await fetch(emu.url + path, { method: "POST", headers: { AccessKey: emu.fixtures.accessKey, "content-type": "application/json" }, body: JSON.stringify({ Hostname: "a..b" }) });
    assert.equal(res.status, 400);
    const body = (await res.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ["ErrorKey", "Field", "Message"]);
  });

  it("removes a hostname (DELETE with a body); removing it again is NotFoundError", async () => {
    const client = emu.client();
    await client.pullZones.addHostname(zoneId, "gone.example.com");
    await emu.markRequests();
    await client.pullZones.removeHostname(zoneId, "Gone.Example.com");
    assert.deepEqual(
      (await hostnameCalls("removeHostname")).map((c) => [c.method, c.status]),
      [["DELETE", 204]],
    );
    assert.equal(await client.pullZones.findHostname(zoneId, "gone.example.com"), undefined);
    await assert.rejects(client.pullZones.removeHostname(zoneId, "gone.example.com"), (e: unknown) => {
      assert.ok(e instanceof NotFoundError);
      assert.equal(e.status, 400);
      assert.equal(e.errorKey, "pullzone.hostname_not_found");
      return true;
    });
  });

  it("refuses to remove a system hostname", async () => {
    await assert.rejects(emu.client().pullZones.removeHostname(zoneId, "emulator-main.b-cdn.net"), (e: unknown) => {
      assert.ok(e instanceof ValidationError && !(e instanceof NotFoundError));
      assert.equal(e.errorKey, "pullzone.hostname_system");
      return true;
    });
    assert.ok(await emu.client().pullZones.findHostname(zoneId, "emulator-main.b-cdn.net"));
  });

  it("an unknown zone is NotFoundError for every operation", async () => {
    const client = emu.client();
    const isNotFound = (e: unknown) => e instanceof NotFoundError && e.status === 404;
    await assert.rejects(client.pullZones.getPullZone(missingZoneId), isNotFound);
    await assert.rejects(client.pullZones.addHostname(missingZoneId, "nozone.example.com"), isNotFound);
    await assert.rejects(client.pullZones.removeHostname(missingZoneId, "nozone.example.com"), isNotFound);
    await assert.rejects(client.pullZones.findHostname(missingZoneId, "nozone.example.com"), isNotFound);
  });

  it("a suspended zone takes no new hostname but can still lose one", async () => {
    const suspendedId = Number(emu.fixtures.suspendedPullZoneId);
    const client = emu.client();
    await assert.rejects(client.pullZones.addHostname(suspendedId, "new.suspended.example"), (e: unknown) => {
      assert.ok(e instanceof ValidationError);
      assert.equal(e.errorKey, "pullzone.suspended");
      return true;
    });
    // Arrange a custom hostname left over from before the suspension, straight in the emulator's store.
    const store = emu.emulator.ctx.store;
    const zone = store.get<PullZoneRecord>("pullzone", suspendedId);
    assert.ok(zone);
    zone.Hostnames.push({ ...zone.Hostnames[0], Id: store.nextId("hostname"), Value: "old.suspended.example", IsSystemHostname: false, IsManagedHostname: false });
    store.put("pullzone", suspendedId, zone);
    await client.pullZones.removeHostname(suspendedId, "old.suspended.example");
    assert.equal(await client.pullZones.findHostname(suspendedId, "old.suspended.example"), undefined);
  });

  it("a managed hostname (IsManagedHostname, not the system one) is bunny.net's like the system one: never removed, and keeps bunny.net's certificate", async () => {
    const client = emu.client();
    // Arrange a managed hostname straight in the emulator's store (the API makes them; no route adds one).
    const store = emu.emulator.ctx.store;
    const zone = store.get<PullZoneRecord>("pullzone", zoneId);
    assert.ok(zone);
    const system = zone.Hostnames.find((h) => h.IsSystemHostname);
    assert.ok(system);
    zone.Hostnames.push({ ...system, Id: store.nextId("hostname"), Value: "managed.client-zone.example", IsSystemHostname: false, IsManagedHostname: true });
    store.put("pullzone", zoneId, zone);
    await assert.rejects(client.pullZones.removeHostname(zoneId, "managed.client-zone.example"), (e: unknown) => e instanceof ValidationError && e.errorKey === "pullzone.hostname_system");
    await client.pullZones.loadFreeCertificate("managed.client-zone.example");
    const read = await client.pullZones.findHostname(zoneId, "managed.client-zone.example");
    assert.deepEqual([read?.HasCertificate, read?.CertificateProvisionType], [true, CertificateProvision.Managed], "bunny.net's own certificate, not a free one");
    await assert.rejects(client.pullZones.removeCertificate(zoneId, "managed.client-zone.example"), (e: unknown) => e instanceof ValidationError && e.errorKey === "pullzone.certificate_managed");
  });

  it("retries reads and removals under injected 503s", async () => {
    const client = emu.client({ maxRetries: 2 });
    await client.pullZones.addHostname(zoneId, "retry.example.com");
    await emu.faults({ rules: [{ path: "^/pullzone/", errorRate: 1, errorStatus: 503 }] });
    await emu.markRequests();
    await assert.rejects(client.pullZones.getPullZone(zoneId), (e: unknown) => e instanceof ServerError && e.attempts === 3);
    await assert.rejects(client.pullZones.removeHostname(zoneId, "retry.example.com"), (e: unknown) => e instanceof ServerError && e.attempts === 3);
    const log = await emu.requests();
    assert.equal(log.filter((r) => r.route === "/pullzone/:id" && r.status === 503).length, 3);
    assert.equal((await hostnameCalls("removeHostname")).filter((r) => r.status === 503).length, 3);

    // Half the answers fail (seeded, so the run is repeatable): the read still gets through.
    await emu.faults({ rules: [{ path: "^/pullzone/", errorRate: 0.5, errorStatus: 503 }], seed: 7 });
    await emu.markRequests();
    const zone = await emu.client({ maxRetries: 5 }).pullZones.getPullZone(zoneId);
    assert.equal(zone.Id, zoneId);
    const statuses = (await emu.requests()).map((r) => r.status);
    assert.ok(statuses.includes(503), `no 503 was injected: ${statuses.join(",")}`);
    assert.equal(statuses[statuses.length - 1], 200);
  });

  it("a removal whose answer was lost reports the hostname as gone (NotFoundError) when it is sent again", async () => {
    const client = emu.client({ maxRetries: 0 });
    await client.pullZones.addHostname(zoneId, "lost-answer.example.com");
    await emu.faults({ rules: [{ path: "/removeHostname$", errorRate: 1, errorStatus: 503, phase: "after" }] });
    await assert.rejects(client.pullZones.removeHostname(zoneId, "lost-answer.example.com"), ServerError);
    await emu.clearFaults();
    // The lost attempt did remove it; repeating the removal finds nothing left to remove.
    assert.equal(await client.pullZones.findHostname(zoneId, "lost-answer.example.com"), undefined);
    await assert.rejects(client.pullZones.removeHostname(zoneId, "lost-answer.example.com"), NotFoundError);
  });

  it("does not repeat addHostname after a 503, and the hostname the server did add is found, not added twice", async () => {
    const client = emu.client({ maxRetries: 3 });
    await emu.faults({ rules: [{ path: "/addHostname$", errorRate: 1, errorStatus: 503 }] });
    await emu.markRequests();
    await assert.rejects(client.pullZones.addHostname(zoneId, "once.example.com"), (e: unknown) => e instanceof ServerError && e.attempts === 1);
    assert.equal((await hostnameCalls("addHostname")).length, 1);
    assert.equal(await client.pullZones.findHostname(zoneId, "once.example.com"), undefined);

    // The server acted, then the answer was lost: the next attempt says "already registered", and the lookup adopts it.
    await emu.faults({ rules: [{ path: "/addHostname$", errorRate: 1, errorStatus: 503, phase: "after" }] });
    await emu.markRequests();
    await assert.rejects(client.pullZones.addHostname(zoneId, "after.example.com"), (e: unknown) => e instanceof ServerError && e.attempts === 1);
    assert.equal((await hostnameCalls("addHostname")).length, 1);
    await emu.clearFaults();
    await assert.rejects(client.pullZones.addHostname(zoneId, "after.example.com"), AlreadyExistsError);
    const zone = await client.pullZones.getPullZone(zoneId);
    assert.equal(zone.Hostnames.filter((h) => h.Value === "after.example.com").length, 1);
  });
});

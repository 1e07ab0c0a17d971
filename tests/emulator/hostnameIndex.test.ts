import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator } from "bunnynet-emulator/dist/server.js";
import { createPullZone } from "bunnynet-emulator/dist/surfaces/pullZones.js";

/**
 * The account's hostnames are indexed (emulator/store.ts `defineIndex`; issue 36: an add scanned every pull zone): the
 * index follows every write, and a data file from before it is indexed on first use. Times are in
 * bench/emulatorAddScale.ts, not asserted here.
 */
describe("emulator: pull zone hostnames looked up through an index", function () {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "hostname-index-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function open(dataPath: string) {
    const emulator = createEmulator({ dataPath });
    const key = { AccessKey: String(emulator.ctx.fixtures().accessKey) };
    const call = async (method: "POST" | "DELETE" | "GET", url: string, payload?: unknown) => {
      const headers = payload === undefined ? key : { ...key, "content-type": "application/json" };
      const res = await emulator.app.inject({ method, url, headers, payload: payload === undefined ? undefined : JSON.stringify(payload) });
      return { status: res.statusCode, body: res.body };
    };
    const add = (zoneId: number, hostname: string) => call("POST", `/pullzone/${zoneId}/addHostname`, { Hostname: hostname });
    return { emulator, call, add };
  }

  it("a hostname is refused on another zone while a zone holds it, and free once removed or once its zone is deleted", async () => {
    const { emulator, call, add } = open(":memory:");
    try {
      const [a, b] = [createPullZone(emulator.ctx, "index-a").Id, createPullZone(emulator.ctx, "index-b").Id];
      assert.equal((await add(a, "Shop.Index.example")).status, 204);
      const refused = await add(b, "shop.index.example");
      assert.equal(refused.status, 400);
      assert.match(refused.body, /hostname_already_registered/);
      assert.equal((await call("GET", "/pullzone/loadFreeCertificate?hostname=shop.index.example")).status, 200, "found for its certificate");
      assert.equal((await call("DELETE", `/pullzone/${a}/removeHostname`, { Hostname: "shop.index.example" })).status, 204);
      assert.equal((await call("GET", "/pullzone/loadFreeCertificate?hostname=shop.index.example")).status, 404, "gone from the index");
      assert.equal((await add(b, "shop.index.example")).status, 204, "free once removed");
      assert.equal((await add(a, "shop.index.example")).status, 400);
      assert.equal((await call("DELETE", `/pullzone/${b}`)).status, 204);
      assert.equal((await add(a, "shop.index.example")).status, 204, "free once its zone is deleted");
    } finally {
      await emulator.close();
    }
  });

  it("a data file whose zones were written before the index is indexed on first use", async () => {
    const path = join(dir, "old.sqlite");
    const first = open(path);
    const zone = createPullZone(first.emulator.ctx, "index-old").Id;
    assert.equal((await first.add(zone, "old.index.example")).status, 204);
    // As an emulator without the index left the file: no index rows, no marker.
    first.emulator.ctx.store.db.exec("DELETE FROM object_keys; DELETE FROM meta WHERE key LIKE 'indexed:%'");
    await first.emulator.close();
    const again = open(path);
    try {
      const other = createPullZone(again.emulator.ctx, "index-new").Id;
      assert.equal((await again.add(other, "old.index.example")).status, 400, "the old zone's hostname is found");
    } finally {
      await again.emulator.close();
    }
  });
});

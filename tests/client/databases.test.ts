import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { AlreadyExistsError, InvalidRequestError, NotFoundError, UnauthorizedError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";
import { BunnyClient } from "bunnynet-pulumi/dist/client/index.js";

/** Edge databases over HTTP, with the account's JWT: the exchange, its renewal, and the API's validation. */
describe("client: edge databases and the account's JWT", () => {
  let emu: TestEmulator;
  let counter = 0;
  const uniqueName = () => `client-db-${++counter}`;
  const exchange = async (key: string) => {
    const res = await fetch(`${emu.url}/apikey/exchange`, { method: "POST", headers: { AccessKey: key, "content-type": "application/json" }, body: JSON.stringify({ AccessKey: key }) });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as { Token?: string } | undefined };
  };

  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  it("the exchange answers a JWT for the account key; a wrong key is 401; the database API refuses the key itself and a bad token", async () => {
    const ok = await exchange(emu.fixtures.accessKey);
    assert.equal(ok.status, 200);
    assert.match(ok.body!.Token!, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.equal((await exchange("not-a-key-of-this-account")).status, 401);
    const list = (headers: Record<string, string>) => fetch(`${emu.url}/edgedb/v2/databases`, { headers });
    assert.equal((await list({ Authorization: ok.body!.Token! })).status, 200, "the token as the whole header (as Terraform sends it)");
    assert.equal((await list({ Authorization: `Bearer ${ok.body!.Token!}` })).status, 200);
    const byKey = await list({ AccessKey: emu.fixtures.accessKey });
    assert.equal(byKey.status, 401);
    assert.match(((await byKey.json()) as { error: string }).error, /Authorization header/);
    assert.equal((await list({ Authorization: `${ok.body!.Token!.slice(0, -2)}xx` })).status, 401);
  });

  it("creates, reads, lists, changes regions, generates tokens and deletes; one exchange serves every request", async () => {
    const client = emu.client();
    await emu.markRequests();
    const name = uniqueName();
    const id = await client.databases.createDatabase({ name, primary_regions: ["DE"], replicas_regions: ["NY", "SG"], storage_region: "us-east-1" });
    assert.match(id, /^db_[0-9A-Z]{26}$/);
    const db = await client.databases.getDatabase(id);
    assert.deepEqual([db.name, db.primary_regions, db.replicas_regions], [name, ["DE"], ["NY", "SG"]]);
    assert.match(db.url, /^libsql:\/\/.+\.lite\.bunnydb\.net$/);
    assert.equal((await client.databases.findDatabaseByName(name))?.id, id);
    await client.databases.updateDatabase(id, { primary_regions: ["DE", "UK"], replicas_regions: [] });
    assert.deepEqual((await client.databases.getDatabase(id)).primary_regions, ["DE", "UK"]);
    const full = await client.databases.generateToken(id, "full-access");
    const readOnly = await client.databases.generateToken(id, "read-only");
    assert.notEqual(full, readOnly);
    await client.databases.deleteDatabase(id);
    await assert.rejects(client.databases.getDatabase(id), NotFoundError);
    await assert.rejects(client.databases.deleteDatabase(id), NotFoundError);
    const requests = await emu.requests();
    assert.equal(requests.filter((r) => r.url === "/apikey/exchange").length, 1, "the JWT is asked for once");
    assert.ok(requests.filter((r) => r.url.startsWith("/edgedb/")).every((r) => r.auth === "bearer"));
  });

  it("the API refuses a taken name (AlreadyExistsError), unknown and repeated regions, and a rename, each saying why", async () => {
    const client = emu.client();
    const name = uniqueName();
    const id = await client.databases.createDatabase({ name, primary_regions: ["DE"], replicas_regions: [], storage_region: "us-east-1" });
    await assert.rejects(client.databases.createDatabase({ name, primary_regions: ["NY"], replicas_regions: [], storage_region: "us-east-1" }), (e: unknown) => e instanceof AlreadyExistsError && /already exists/.test(e.message));
    await assert.rejects(client.databases.createDatabase({ name: uniqueName(), primary_regions: ["XX"], replicas_regions: [], storage_region: "us-east-1" }), (e: unknown) => e instanceof ValidationError && /"XX" is not a database region \(one of DE, UK, .*ZA\)/.test(e.message));
    await assert.rejects(client.databases.updateDatabase(id, { primary_regions: ["DE"], replicas_regions: ["DE"] }), (e: unknown) => e instanceof ValidationError && /region DE is named twice/.test(e.message));
    // The client refuses what it can tell before sending: no primary region, a lower-case one.
    await emu.markRequests();
    await assert.rejects(client.databases.createDatabase({ name: uniqueName(), primary_regions: [], replicas_regions: [], storage_region: "us-east-1" }), /primary_regions/);
    await assert.rejects(client.databases.updateDatabase(id, { primary_regions: ["de"], replicas_regions: [] }), /primary_regions/);
    assert.equal((await emu.requests()).length, 0);
    const rename = await fetch(`${emu.url}/edgedb/v2/databases/${id}`, {
      method: "PATCH",
      headers: { Authorization: (await exchange(emu.fixtures.accessKey)).body!.Token!, "content-type": "application/json" },
      body: JSON.stringify({ name: "other", primary_regions: ["DE"], replicas_regions: [] }),
    });
    assert.deepEqual([rename.status, await rename.json()], [400, { error: "name cannot be changed" }]);
  });

  it("a revoked JWT is exchanged again once, and the request goes through", async () => {
    const client = emu.client();
    await client.databases.listDatabases();
    const revoke = await fetch(`${emu.url}/_emulator/account-jwts/revoke`, { method: "POST", headers: { AccessKey: emu.fixtures.accessKey } });
    assert.equal(revoke.status, 200);
    await emu.markRequests();
    await client.databases.listDatabases();
    const seen = (await emu.requests()).map((r) => `${r.method} ${r.url} ${r.status}`);
    assert.deepEqual(seen, ["GET /edgedb/v2/databases 401", "POST /apikey/exchange 200", "GET /edgedb/v2/databases 200"]);

  });

  it("a server that echoes the JWT in its error (whole, or a part, upper-cased) gets it redacted from the message", async () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzY29wZSI6ImFjY291bnQifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg";
    const server = createServer((req, res) => {
      if (req.url === "/apikey/exchange") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ Token: jwt }));
      const sent = String(req.headers.authorization);
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: `token ${sent} refused; part ${sent.slice(10, 40).toUpperCase()}` }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new BunnyClient({ apiKey: emu.fixtures.accessKey, apiUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
      const failure = (await client.databases.listDatabases().then(
        () => undefined,
        (e: unknown) => e,
      )) as Error;
      assert.ok(failure instanceof ValidationError, String(failure));
      const shown = `${failure.message} ${JSON.stringify(failure)} ${String(failure.stack)}`;
      assert.match(failure.message, /\[redacted\]/);
      for (let i = 0; i + 12 <= jwt.length; i += 6) assert.ok(!shown.toLowerCase().includes(jwt.slice(i, i + 12).toLowerCase()), `no part of the JWT: ${shown}`);
    } finally {
      server.close();
    }
  });

  it("a JWT refused again after one renewal fails the request: one exchange more, one request more, no loop", async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.url === "/apikey/exchange") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ Token: `eyJhbGciOiJIUzI1NiJ9.eyJuIjoi${seen.length}In0.c2lnbmF0dXJlLW9m` }));
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "The token has expired." }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new BunnyClient({ apiKey: emu.fixtures.accessKey, apiUrl: `http://127.0.0.1:${port}`, maxRetries: 3 });
      await assert.rejects(client.databases.listDatabases(), (e: unknown) => e instanceof UnauthorizedError && /The token has expired/.test((e as Error).message));
      assert.deepEqual(seen, ["POST /apikey/exchange", "GET /edgedb/v2/databases", "POST /apikey/exchange", "GET /edgedb/v2/databases"]);
    } finally {
      server.close();
    }
  });

  it("a JWT that cannot be a header (a line break in it) is refused as such, before any request with it", async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ Token: "eyJhbGciOiJIUzI1NiJ9.eyJ9\r\nX-Injected: 1" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new BunnyClient({ apiKey: emu.fixtures.accessKey, apiUrl: `http://127.0.0.1:${port}`, maxRetries: 2 });
      await assert.rejects(client.databases.listDatabases(), (e: unknown) => e instanceof InvalidRequestError && /cannot be sent in an HTTP header/.test((e as Error).message));
      assert.deepEqual(seen, ["POST /apikey/exchange"]);
    } finally {
      server.close();
    }
  });

  it("a key the exchange refuses fails the request with UnauthorizedError naming the key's source, never the key", async () => {
    const client = new BunnyClient({ apiKey: "00000000-1111-2222-3333-444444444444", apiUrl: emu.url, maxRetries: 0 });
    const failure = await client.databases.listDatabases().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(failure instanceof UnauthorizedError, String(failure));
    assert.match(failure.message, /POST \/apikey\/exchange/);
    assert.ok(!failure.message.includes("00000000-1111-2222-3333-444444444444"));
  });
});

import assert from "node:assert/strict";
import { request } from "undici";
import { startEmulator, type TestEmulator } from "../support/emulator";

/**
 * A body's property its model lacks (unknown, or read-only sent back in a whole object): bunny.net's API ignores it,
 * so the emulator does by default, and refuses it, naming it, in strict mode (this repository's tests). Bodies as
 * bunny.net's Terraform provider sends them (emulator/unknownProperties.ts cites where).
 */
describe("emulator: properties a model lacks, ignored by default and refused in strict mode", () => {
  const emulators: Record<"lenient" | "strict", TestEmulator | undefined> = { lenient: undefined, strict: undefined };

  before(async () => {
    emulators.lenient = await startEmulator(":memory:", { strict: false });
    emulators.strict = await startEmulator(":memory:", { strict: true });
  });
  after(async () => {
    await emulators.lenient?.stop();
    await emulators.strict?.stop();
  });

  async function send(mode: "lenient" | "strict", method: "POST" | "PUT", path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const emu = emulators[mode]!;
    const res = await request(`${emu.url}${path}`, { method, headers: { AccessKey: emu.fixtures.accessKey, "content-type": "application/json" }, body: JSON.stringify(body) });
    const text = await res.body.text();
    return { status: res.statusCode, json: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) };
  }

  /** Makes a DNS zone in both emulators; its id in each. */
  async function zoneIn(mode: "lenient" | "strict", domain: string): Promise<number> {
    const made = await send(mode, "POST", "/dnszone", { Domain: domain });
    assert.equal(made.status, 201);
    return made.json.Id as number;
  }

  it("POST /dnszone/{id} with the whole zone (Id, Domain, Records, DnsSecEnabled): kept what the model has, the rest ignored", async () => {
    for (const mode of ["lenient", "strict"] as const) {
      const id = await zoneIn(mode, `whole-${mode}.example`);
      const answer = await send(mode, "POST", `/dnszone/${id}`, { Id: id, Domain: "other.example", Records: [], DnsSecEnabled: true, LoggingEnabled: true });
      if (mode === "strict") {
        assert.equal(answer.status, 400);
        assert.equal(answer.json.Field, "Id");
        assert.match(String(answer.json.Message), /Id is not allowed/);
      } else {
        assert.equal(answer.status, 200, JSON.stringify(answer.json));
        assert.deepEqual([answer.json.Domain, answer.json.LoggingEnabled, answer.json.DnsSecEnabled], [`whole-${mode}.example`, true, false]);
      }
    }
  });

  it("PUT /dnszone/{id}/records with a record's read-only AcceleratedPullZoneId and LinkName", async () => {
    for (const mode of ["lenient", "strict"] as const) {
      const id = await zoneIn(mode, `record-${mode}.example`);
      const record = { Type: 0, Ttl: 300, Value: "192.0.2.1", Name: "a", Priority: 0, Port: 0, Flags: 0, Tag: "", Accelerated: false, AcceleratedPullZoneId: 0 };
      const answer = await send(mode, "PUT", `/dnszone/${id}/records`, record);
      assert.equal(answer.status, mode === "strict" ? 400 : 201, JSON.stringify(answer.json));
      if (mode === "strict") assert.match(String(answer.json.Message), /is not allowed/);
      else assert.equal(answer.json.Value, "192.0.2.1");
    }
  });

  it("a schema-checked body (Shield access list) drops unknown properties, but still refuses a wrong value", async () => {
    const shieldZoneId = emulators.lenient!.fixtures.shieldZoneId;
    const list = { name: "blocked", type: 0, content: "192.0.2.1", extra: { nested: true } };
    const lenient = await send("lenient", "POST", `/shield/shield-zone/${shieldZoneId}/access-lists`, list);
    assert.ok(lenient.status < 300, JSON.stringify(lenient.json));
    const strict = await send("strict", "POST", `/shield/shield-zone/${emulators.strict!.fixtures.shieldZoneId}/access-lists`, list);
    assert.equal(strict.status, 400);
    const wrong = await send("lenient", "POST", `/shield/shield-zone/${shieldZoneId}/access-lists`, { ...list, name: 7 });
    assert.equal(wrong.status, 400);
  });
});

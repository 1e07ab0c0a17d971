import assert from "node:assert/strict";
import { request } from "undici";
import { startEmulator, type TestEmulator } from "../support/emulator";

/**
 * Values in the API's own form, where bunny.net's Terraform provider reads them (its acceptance tests, run against
 * the real API, read each back; tests/terraform runs them when ../shared is there): a pull zone's settings kept and
 * answered, DNSSEC's digest type, a PullZone record's value, the region list.
 */
describe("emulator: values in the API's own form", () => {
  let emu: TestEmulator;

  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  async function call(method: "GET" | "POST" | "PUT", path: string, body?: unknown): Promise<Record<string, unknown>> {
    const res = await request(`${emu.url}${path}`, {
      method,
      headers: { AccessKey: emu.fixtures.accessKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    assert.ok(res.statusCode < 300, `${method} ${path} → ${res.statusCode} ${text}`);
    return text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
  }

  it("a pull zone keeps every setting sent, names bound case-insensitively, and a fresh zone has Terraform's defaults", async () => {
    const fresh = await call("POST", "/pullzone", { Name: "forms-fresh", OriginUrl: "https://origin.example" });
    assert.deepEqual([fresh.OriginShieldQueueMaxWaitTime, fresh.OptimizerMinifyCSS, fresh.LogForwardingFormat, fresh.RoutingFilters], [30, true, 1, ["all"]]);
    const settings = {
      OptimizerEnabled: true,
      OptimizerDesktopMaxWidth: 1200,
      OptimizerWatermarkOffset: 4.5,
      OriginShieldMaxQueuedRequests: 10,
      LogForwardingEnabled: true,
      LogForwardingHostname: "logs.example",
      LogForwardingProtocol: 2,
      OriginRetry5XXResponses: true,
      RoutingFilters: ["eu", "us"],
      EnableWebpVary: true,
      ZoneSecurityIncludeHashRemoteIp: true,
    };
    const made = await call("POST", "/pullzone", { Name: "forms-kept", OriginUrl: "https://origin.example", ...settings });
    const read = await call("GET", `/pullzone/${made.Id}`);
    const { EnableWebpVary: _webp, ZoneSecurityIncludeHashRemoteIp: _ip, ...sameName } = settings;
    for (const [name, value] of Object.entries(sameName)) assert.deepEqual(read[name], value, name);
    assert.deepEqual([read.EnableWebPVary, read.ZoneSecurityIncludeHashRemoteIP, "EnableWebpVary" in read], [true, true, false]);
    const updated = await call("POST", `/pullzone/${made.Id}`, { OptimizerEnabled: false, BunnyAiImageBlueprints: [] });
    assert.deepEqual([updated.OptimizerEnabled, updated.OptimizerDesktopMaxWidth], [false, 1200]);
  });

  it("DNSSEC's digest type is named with its DS code; a PullZone record keeps the value sent, else the zone's name", async () => {
    const zone = await call("POST", "/dnszone", { Domain: "forms.example" });
    const ds = await call("POST", `/dnszone/${zone.Id}/dnssec`);
    assert.equal(ds.DigestType, "SHA256 (2)");
    assert.match(String(ds.Digest), /^[0-9a-f]{64}$/);
    const pullZone = await call("GET", `/pullzone/${emu.fixtures.pullZoneId}`);
    const unlabelled = await call("PUT", `/dnszone/${zone.Id}/records`, { Type: 7, Name: "cdn", PullZoneId: pullZone.Id });
    assert.equal(unlabelled.Value, pullZone.Name);
    const labelled = await call("PUT", `/dnszone/${zone.Id}/records`, { Type: 7, Name: "cdn2", PullZoneId: pullZone.Id, Value: "anything" });
    assert.equal(labelled.Value, "anything");
  });

  it("GET /region names each region as the API does", async () => {
    const regions = (await call("GET", "/region")) as unknown as { RegionCode: string; Name: string }[];
    assert.equal(regions.find((r) => r.RegionCode === "LJ")?.Name, "EU: Ljubljana, SI");
    for (const r of regions) assert.match(r.Name, /^(EU|NA|Asia|SA|OC|ME|AF): [^,]+, [A-Z0-9]+$/);
  });
});

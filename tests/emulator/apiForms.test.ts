import assert from "node:assert/strict";
import { request } from "undici";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { RateLimitAction, RuleOperator, RuleVariable } from "bunnynet-pulumi/dist/schemas/shield.js";

/**
 * Values in the API's own form, where bunny.net's Terraform provider reads them (its acceptance tests, run against
 * the real API, read each back; tests/terraform runs them when ../shared is there): a pull zone's settings kept and
 * answered, DNSSEC's digest type, a PullZone record's value, the region list, Shield's engine defaults and DDoS mode,
 * a rate-limit rule's missing description, a video library's own pull zone.
 */
describe("emulator: values in the API's own form", () => {
  let emu: TestEmulator;

  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  async function call(method: "GET" | "POST" | "PUT" | "PATCH", path: string, body?: unknown): Promise<Record<string, unknown>> {
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

  it("Shield: the WAF engine's defaults, a zone's DDoS mode kept, a rate-limit rule without description answers null", async () => {
    const engine = (await call("GET", "/shield/waf/engine-config")).data as { name: string; valueEncoded: string }[];
    const value = (name: string) => engine.find((e) => e.name === name)?.valueEncoded;
    assert.equal(value("allowed_http_versions"), "HTTP/1.0 HTTP/1.1 HTTP/2 HTTP/2.0");
    assert.match(String(value("allowed_request_content_type")), /^\|application\/x-www-form-urlencoded\| .*\|text\/plain\|$/);
    assert.equal(value("blocking_paranoia_level"), "1");
    const pullZone = await call("POST", "/pullzone", { Name: "forms-shield", OriginUrl: "https://origin.example" });
    const made = (await call("POST", "/shield/shield-zone", { pullZoneId: pullZone.Id, shieldZone: { dDoSExecutionMode: 0, dDoSShieldSensitivity: 1 } })).data as { shieldZone: { shieldZoneId: number } };
    const read = (await call("GET", `/shield/shield-zone/${made.shieldZone.shieldZoneId}`)).data as Record<string, unknown>;
    assert.deepEqual([read.dDoSExecutionMode, read.dDoSShieldSensitivity], [0, 1]);
    const configuration = { actionType: RateLimitAction.Block, variableTypes: { [RuleVariable.REQUEST_URI]: "" }, operatorType: RuleOperator.BEGINSWITH, value: "/login", requestCount: 5, timeframe: 1, blockTime: 60 };
    const rule = (await call("POST", "/shield/rate-limit", { shieldZoneId: emu.fixtures.shieldZoneId, ruleName: "no description", ruleConfiguration: configuration })) as { data?: { id: number }; id?: number };
    const id = rule.data?.id ?? rule.id;
    const stored = (await call("GET", `/shield/rate-limit/${id}`)) as { data?: Record<string, unknown> } & Record<string, unknown>;
    assert.equal((stored.data ?? stored).ruleDescription, null);
  });

  it("a video library's own pull zone exists, carries its token authentication, and goes with it", async () => {
    const library = await call("POST", "/videolibrary", { Name: "forms-library" });
    const zone = await call("GET", `/pullzone/${library.PullZoneId}`);
    assert.deepEqual([zone.VideoLibraryId, zone.ZoneSecurityEnabled], [library.Id, false]);
    await call("POST", `/videolibrary/${library.Id}`, { EnableTokenAuthentication: true });
    assert.equal((await call("GET", `/pullzone/${library.PullZoneId}`)).ZoneSecurityEnabled, true);
    const res = await request(`${emu.url}/videolibrary/${library.Id}`, { method: "DELETE", headers: { AccessKey: emu.fixtures.accessKey } });
    assert.equal(res.statusCode, 204);
    await res.body.dump();
    const gone = await request(`${emu.url}/pullzone/${library.PullZoneId}`, { headers: { AccessKey: emu.fixtures.accessKey } });
    assert.equal(gone.statusCode, 404);
    await gone.body.dump();
  });
});

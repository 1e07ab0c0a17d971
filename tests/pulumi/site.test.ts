import assert from "node:assert/strict";
import { unmarked } from "bunnynet-pulumi/dist/pulumi/ownership.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { documentedGet } from "../support/documentedGet";
import { ProgramHarness } from "../support/programHarness";
import { ProviderHost } from "../support/providerHost";
import { SITE_PROJECT, SITE_SECRET_CONFIG, siteConfig } from "../support/site";
import { site } from "../../examples/site/program";

const short = (urn: string) => urn.split("::").pop();
/** Every resource of the site, by name. */
const RESOURCES = ["zone", "files", "content", "cdn", "www-record", "www", "shield", "api-limit", "admin-only-office", "blocked-countries", "redirect-to-www", "security-headers", "edge", "greeting", "api-token", "videos", "intro", "poster", "purge"];

/**
 * Issue 22's check: the whole site (examples/site, written only from the resources' names and inputs) deployed from
 * zero against a fresh emulator with the SDK's real provider host: one `up` creates everything with a certificate,
 * an unchanged `up` makes no API call, refresh finds no drift, preview plans nothing, destroy leaves nothing. What
 * the API holds is read with the documented GETs, not with our client.
 */
describe("pulumi: a site from zero in one up (examples/site)", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let harness: ProgramHarness;

  before(async () => {
    emu = await startEmulator();
    host = await ProviderHost.start({ project: SITE_PROJECT });
    harness = new ProgramHarness({ project: SITE_PROJECT, config: siteConfig(emu), secretConfig: SITE_SECRET_CONFIG, providerHost: host });
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
  });

  /** A documented GET of the core API, with the account key; undefined on 404. */
  const core = (path: string) => documentedGet(emu, path);
  const ids = () => Object.fromEntries(harness.resources().map((r) => [r.name, r.id]));
  let created: Record<string, string> = {};

  it("one up creates the whole site, the hostname with a free certificate and force-SSL", async () => {
    const run = await harness.up(site);
    assert.deepEqual(run.steps.map((s) => `${short(s.urn)} ${s.op}`).sort(), RESOURCES.map((name) => `${name} create`).sort());
    created = ids();
    const pullZone = await core(`/pullzone/${created.cdn}`);
    const www = (pullZone?.Hostnames as Record<string, unknown>[]).find((h) => h.Value === "www.site.example");
    assert.deepEqual([www?.HasCertificate, www?.ForceSSL], [true, true]);
    assert.ok(Date.parse(String(run.outputs.certificateExpiresAt)) > Date.now());
    assert.equal(run.outputs.cdnHostname, `${pullZone?.Name}.b-cdn.net`);
    const records = (await core(`/dnszone/${created.zone}`))?.Records as Record<string, unknown>[];
    assert.ok(records.some((r) => r.Name === "www" && r.Value === run.outputs.cdnHostname));
    const zone = await core(`/storagezone/${created.files}`);
    assert.ok(zone);
    // The site's files, read with the documented listing of the Storage API and the zone's password.
    const listing = await fetch(`${emu.url}/storage/${String(zone.Name)}/`, { headers: { AccessKey: String(zone.Password) } });
    assert.deepEqual(((await listing.json()) as { ObjectName: string }[]).map((o) => o.ObjectName).sort(), ["404.html", "css", "index.html"]);
    assert.equal(run.outputs.siteFiles, 3);
    const library = await core(`/videolibrary/${created.videos}`);
    assert.equal(library?.VideoCount, 1);
    // The video, read with the library's own key as Stream requires: it plays, with the poster as its thumbnail.
    const video = (await (await fetch(`${emu.url}/library/${created.videos}/videos/${run.outputs.videoId}`, { headers: { AccessKey: String(library?.ApiKey) } })).json()) as Record<string, unknown>;
    assert.deepEqual([video.title, video.status, video.length], ["Intro", 4, 5]);
    assert.equal(run.outputs.thumbnailUrl, video.thumbnailUrl);
    assert.match(String(video.thumbnailFileName), /^thumbnail_[0-9a-f]{12}\.jpg$/);
    assert.ok(await core(`/compute/script/${created.edge}`));
    const rules = pullZone?.EdgeRules as { Description: string; Triggers: { PatternMatches: string[] }[] }[];
    // Each description ends with its resource's mark (pulumi/ownership.ts).
    assert.deepEqual(rules.map((r) => unmarked(r.Description).text), ["CDN hostname to www", "security headers"]);
    assert.deepEqual(rules[0].Triggers[0].PatternMatches, [`https://${run.outputs.cdnHostname}/*`]);
    assert.ok(Date.parse(String(run.outputs.purgedAt)) > 0);
    // Shield: the WAF rule and the country list, read with the Shield API's documented GETs.
    const shieldZoneId = run.outputs.shieldZoneId;
    const wafRules = (await core(`/shield/waf/custom-rules/${shieldZoneId}`))?.data as { ruleName: string; ruleConfiguration: { actionType: number; value: string } }[];
    assert.deepEqual(wafRules.map((r) => [r.ruleName, r.ruleConfiguration.actionType, r.ruleConfiguration.value]), [["admin only from the office", 1, "/admin"]]);
    const lists = (await core(`/shield/shield-zone/${shieldZoneId}/access-lists`))?.customLists as { listId: number; name: string; action: number; isEnabled: boolean }[];
    assert.deepEqual(lists.map((l) => [l.name, l.action, l.isEnabled]), [["blocked countries", 2, true]]);
    const countries = (await core(`/shield/shield-zone/${shieldZoneId}/access-lists/${lists[0].listId}`))?.data as { content: string };
    assert.deepEqual(countries.content.split("\n").sort(), ["KP", "RU"]);
    const blockPage = await fetch(`${emu.url}/shield/shield-zone/${shieldZoneId}/custom-page/block`, { headers: { AccessKey: emu.fixtures.accessKey } });
    assert.equal(blockPage.status, 200);
    assert.match(await blockPage.text(), /blocked\. Write to security@site\.example/);
  });

  it("an unchanged up changes nothing and makes no API call", async () => {
    await emu.markRequests();
    const run = await harness.up(site);
    assert.deepEqual(run.steps.map((s) => s.op), Array(RESOURCES.length).fill("same"));
    assert.deepEqual(await emu.requests(), []);
  });

  it("refresh finds no drift and preview then plans nothing", async () => {
    const before = JSON.stringify(harness.resources());
    await harness.refresh();
    assert.equal(JSON.stringify(harness.resources()), before);
    const preview = await harness.preview(site);
    assert.deepEqual(preview.steps.map((s) => s.op), Array(RESOURCES.length).fill("same"));
  });

  it("a new release purges the cache once (a replacement of the purge), and nothing else changes", async () => {
    harness.setConfig({ ...harness.stackConfig(), "bunnynet-site:release": "2" });
    await emu.markRequests();
    const run = await harness.up(site);
    assert.deepEqual(run.steps.filter((s) => s.op !== "same").map((s) => `${short(s.urn)} ${s.op}`), ["purge replace"]);
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["POST /pullzone/:id/purgeCache"]);
  });

  it("destroy leaves nothing", async () => {
    await harness.destroy();
    assert.equal(harness.resources().length, 0);
    for (const path of [`/dnszone/${created.zone}`, `/storagezone/${created.files}`, `/pullzone/${created.cdn}`, `/videolibrary/${created.videos}`, `/compute/script/${created.edge}`]) {
      assert.equal(await core(path), undefined, `${path} is gone`);
    }
  });
});

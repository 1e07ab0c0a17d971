import assert from "node:assert/strict";
import { issueCertificate } from "bunnynet-emulator/dist/certificates.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { emulatorEnv, runTool } from "../support/cli";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("cli: bunnynet hostnames / secrets", () => {
  let emu: TestEmulator;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  it("lists a zone's hostnames with certificate kind, issuer and expiry; --expiring-within keeps the ones close to expiry; never a key", async () => {
    const zone = Number(emu.fixtures.pullZoneId);
    const client = emu.client();
    await client.pullZones.addHostname(zone, "free.cli.example");
    await client.pullZones.loadFreeCertificate("free.cli.example");
    await client.pullZones.addHostname(zone, "soon.cli.example");
    const soon = await issueCertificate({ hostnames: ["soon.cli.example"], notBefore: new Date(Date.now() - 80 * DAY_MS), notAfter: new Date(Date.now() + 5 * DAY_MS + 60_000) });
    await client.pullZones.addCertificate(zone, "soon.cli.example", soon.certificatePem, soon.privateKeyPem);
    await client.pullZones.setForceSsl(zone, "soon.cli.example", true);
    await client.pullZones.addHostname(zone, "plain.cli.example");

    const run = await runTool(["hostnames", String(zone)], emulatorEnv(emu));
    assert.equal(run.code, 0, run.stderr);
    const rows = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const byName = Object.fromEntries(rows.map((r) => [r.hostname, r]));
    assert.equal(byName["emulator-main.b-cdn.net"].certificate, "bunny.net");
    assert.equal(byName["free.cli.example"].certificate, "free");
    assert.match(byName["free.cli.example"].issuer, /Emulator Free Certificates/);
    assert.deepEqual([byName["soon.cli.example"].certificate, byName["soon.cli.example"].forceSsl, byName["soon.cli.example"].daysLeft], ["custom", true, 5]);
    assert.equal(byName["plain.cli.example"].certificate, "none");
    const body = soon.privateKeyPem.split("\n")[1];
    assert.ok(!run.stdout.includes(body), "no private key in the output");

    const expiring = await runTool(["hostnames", String(zone), "--expiring-within", "30"], emulatorEnv(emu));
    assert.deepEqual(expiring.stdout.trim().split("\n").map((l) => JSON.parse(l).hostname), ["soon.cli.example"]);
    const bad = await runTool(["hostnames", String(zone), "--expiring-within", "soon"], emulatorEnv(emu));
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--expiring-within must be a number of days/);
  });

  it("lists a script's secrets by name, without values", async () => {
    const scriptId = Number(emu.fixtures.scriptId);
    await emu.client().edgeScripts.addSecret(scriptId, { Name: "CLI_SECRET", Secret: "cli-secret-value-123" });
    const run = await runTool(["secrets", String(scriptId), "--format", "csv"], emulatorEnv(emu));
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split("\n");
    assert.equal(lines[0], "id,name,lastModified");
    assert.ok(lines.some((l) => l.includes(",CLI_SECRET,")));
    assert.ok(!run.stdout.includes("cli-secret-value-123"));
    const missing = await runTool(["secrets", "999999"], emulatorEnv(emu));
    assert.equal(missing.code, 3);
  });
});

import assert from "node:assert/strict";
import { request } from "undici";
import { issueCertificate } from "bunnynet-emulator/dist/certificates.js";
import { InvalidRequestError, NotFoundError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";
import { CertificateProvision } from "bunnynet-pulumi/dist/schemas/pullZones.js";
import { startEmulator, type TestEmulator } from "../support/emulator";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The client against the emulator's certificate and secret routes over HTTP: the server's own PEM validation
 * (each refusal a 400 naming the field, never echoing what was sent), the DNS-pending fixture, force-SSL's rule,
 * the private key that `includeCertificate` sends and the client drops, and the secrets routes' shapes.
 */
describe("client: certificates, force-SSL and edge-script secrets", () => {
  let emu: TestEmulator;
  let zoneId: number;
  let scriptId: number;
  let counter = 0;
  const unique = () => `c${++counter}.client-test.example`;

  before(async () => {
    emu = await startEmulator();
    zoneId = Number(emu.fixtures.pullZoneId);
    scriptId = Number(emu.fixtures.emptyScriptId);
  });
  after(() => emu.stop());

  /** A hostname on the zone, and a POST of raw fields to addCertificate (what another client might send). */
  async function withHostname() {
    const hostname = unique();
    await emu.client().pullZones.addHostname(zoneId, hostname);
    return hostname;
  }
  const rawAddCertificate = async (body: unknown) => {
    const res = await request(`${emu.url}/pullzone/${zoneId}/addCertificate`, {
      method: "POST",
      headers: { AccessKey: String(emu.fixtures.accessKey), "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.statusCode, body: (await res.body.json()) as { ErrorKey: string; Field: string; Message: string } };
  };
  const b64 = (text: string) => Buffer.from(text).toString("base64");

  it("the server refuses bad certificates with 400 naming the field, and no answer echoes the key", async () => {
    const hostname = await withHostname();
    const good = await issueCertificate({ hostnames: [hostname] });
    const other = await issueCertificate({ hostnames: ["elsewhere.client-test.example"] });
    const expired = await issueCertificate({ hostnames: [hostname], notBefore: new Date(Date.now() - 50 * DAY_MS), notAfter: new Date(Date.now() - DAY_MS) });
    const cases: [unknown, string, string][] = [
      [{ Hostname: hostname, Certificate: "not base64!", CertificateKey: b64(good.privateKeyPem) }, "pullzone.certificate_invalid", "Certificate"],
      [{ Hostname: hostname, Certificate: b64("hello"), CertificateKey: b64(good.privateKeyPem) }, "pullzone.certificate_invalid", "Certificate"],
      [{ Hostname: hostname, Certificate: b64(good.certificatePem), CertificateKey: b64("no key") }, "pullzone.certificate_key_invalid", "CertificateKey"],
      [{ Hostname: hostname, Certificate: b64(good.certificatePem), CertificateKey: b64(other.privateKeyPem) }, "pullzone.certificate_key_mismatch", "CertificateKey"],
      [{ Hostname: hostname, Certificate: b64(other.certificatePem), CertificateKey: b64(other.privateKeyPem) }, "pullzone.certificate_hostname_mismatch", "Certificate"],
      [{ Hostname: hostname, Certificate: b64(expired.certificatePem), CertificateKey: b64(expired.privateKeyPem) }, "pullzone.certificate_expired", "Certificate"],
      [{ Hostname: hostname, Certificate: b64(good.certificatePem) }, "validation_error", "CertificateKey"],
      [{ Hostname: "nope.client-test.example", Certificate: b64(good.certificatePem), CertificateKey: b64(good.privateKeyPem) }, "pullzone.hostname_not_found", "Hostname"],
    ];
    for (const [body, key, field] of cases) {
      const res = await rawAddCertificate(body);
      assert.deepEqual([res.status, res.body.ErrorKey, res.body.Field], [400, key, field], JSON.stringify(res.body));
      for (const pem of [good.privateKeyPem, other.privateKeyPem]) assert.ok(!JSON.stringify(res.body).includes(pem.split("\n")[1]), "no key in the answer");
    }
    assert.equal((await emu.client().pullZones.findHostname(zoneId, hostname))?.HasCertificate, false, "nothing was installed");
  });

  it("installs a custom certificate; includeCertificate sends it (and the key, which the client drops); removal clears both and force-SSL", async () => {
    const hostname = await withHostname();
    const issued = await issueCertificate({ hostnames: [hostname], keyType: "rsa" });
    const client = emu.client();
    await client.pullZones.addCertificate(zoneId, hostname, issued.certificatePem, issued.privateKeyPem);
    await client.pullZones.setForceSsl(zoneId, hostname, true);
    const raw = await request(`${emu.url}/pullzone/${zoneId}?includeCertificate=true`, { headers: { AccessKey: String(emu.fixtures.accessKey) } });
    const rawText = await raw.body.text();
    assert.ok(rawText.includes(b64(issued.privateKeyPem)), "the API sends the key with includeCertificate");
    const read = (await client.pullZones.findHostname(zoneId, hostname, { withCertificate: true }))!;
    assert.deepEqual([read.HasCertificate, read.ForceSSL, read.CertificateProvisionType, read.CertificateKeyType], [true, true, CertificateProvision.Custom, 1]);
    assert.equal(Buffer.from(read.Certificate!, "base64").toString(), issued.certificatePem);
    assert.ok(!JSON.stringify(read).includes(b64(issued.privateKeyPem)) && !("CertificateKey" in read), "the client keeps no key");
    assert.equal((await client.pullZones.findHostname(zoneId, hostname))?.Certificate, null, "without includeCertificate, no certificate");

    await client.pullZones.removeCertificate(zoneId, hostname);
    const removed = (await client.pullZones.findHostname(zoneId, hostname))!;
    assert.deepEqual([removed.HasCertificate, removed.ForceSSL], [false, false]);
    await assert.rejects(client.pullZones.removeCertificate(zoneId, hostname), NotFoundError, "no certificate any more: already gone");
    await assert.rejects(client.pullZones.setForceSsl(zoneId, hostname, true), (e: unknown) => e instanceof ValidationError && e.errorKey === "pullzone.force_ssl_requires_certificate");
  });

  it("refuses an invalid hostname before sending anything", async () => {
    await assert.rejects(emu.client().pullZones.addCertificate(zoneId, "not a hostname", "x", "y"), InvalidRequestError);
  });

  it("a free certificate: 400 while the fixture's DNS is pending, issued once it points here; 404 for a hostname not in the account", async () => {
    const client = emu.client();
    const pending = String(emu.fixtures.dnsPendingHostname);
    await client.pullZones.addHostname(zoneId, pending);
    for (let i = 0; i < Number(emu.fixtures.dnsPendingAttempts); i++) {
      await assert.rejects(client.pullZones.loadFreeCertificate(pending), (e: unknown) => e instanceof ValidationError && e.errorKey === "pullzone.certificate_dns_not_ready" && /do not point to bunny\.net yet/.test(e.message));
    }
    await client.pullZones.loadFreeCertificate(pending);
    const read = (await client.pullZones.findHostname(zoneId, pending))!;
    assert.deepEqual([read.HasCertificate, read.CertificateProvisionType], [true, CertificateProvision.Http01]);
    await assert.rejects(client.pullZones.loadFreeCertificate("nowhere.client-test.example"), NotFoundError);
  });

  it("a free certificate for a domain with too many certificates this week: 400 carrying the ACME rateLimited problem (the Terraform provider's wording), every time", async () => {
    const client = emu.client();
    const limited = `www.${String(emu.fixtures.certificateRateLimitedDomain)}`;
    await client.pullZones.addHostname(zoneId, limited);
    for (let i = 0; i < 2; i++) {
      await assert.rejects(client.pullZones.loadFreeCertificate(limited), (e: unknown) => {
        assert.ok(e instanceof ValidationError, String(e));
        assert.equal(e.errorKey, "pullzone.certificate_rate_limited");
        // BunnyWay/terraform-provider-bunnynet resource_pullzone_hostname.go, Create: the third of possibleErrors (the server's Message after its prefix).
        assert.match(`loadFreeCertificate failed: ${e.serverMessage}`, /loadFreeCertificate failed: .* urn:ietf:params:acme:error:rateLimited: too many certificates/);
        assert.match(e.serverMessage ?? "", /retry after \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
        return true;
      });
    }
    assert.equal((await client.pullZones.findHostname(zoneId, limited))?.HasCertificate, false);
  });

  it("the certificate authority counts per registered domain: the 50th certificate of a week is issued, the 51st refused", async () => {
    const client = emu.client();
    const domain = "counted-test.example";
    const admin = await request(`${emu.url}/_emulator/certificates-issued`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ domain, count: 49 }) });
    assert.equal(admin.statusCode, 200);
    await admin.body.dump();
    for (const name of ["a", "b"]) await client.pullZones.addHostname(zoneId, `${name}.${domain}`);
    await client.pullZones.loadFreeCertificate(`a.${domain}`);
    await assert.rejects(client.pullZones.loadFreeCertificate(`b.${domain}`), (e: unknown) => e instanceof ValidationError && /too many certificates \(50\) already issued for "counted-test\.example"/.test(e.serverMessage ?? ""));
  });

  it("secrets: add, list (never a value), update, upsert (200 created, 204 updated), delete; names and lengths validated; a variable's name refused", async () => {
    const client = emu.client().edgeScripts;
    const added = await client.addSecret(scriptId, { Name: "TOKEN", Secret: "first-value" });
    assert.deepEqual(Object.keys(added).sort(), ["Id", "LastModified", "Name"]);
    const updated = await client.updateSecret(scriptId, added.Id, "second-value");
    assert.ok(Date.parse(updated.LastModified!) > Date.parse(added.LastModified!));
    const upserted = await client.upsertSecret(scriptId, { Name: "TOKEN", Secret: "third-value" });
    assert.equal(upserted.Id, added.Id);
    const created = await client.upsertSecret(scriptId, { Name: "OTHER", Secret: "x" });
    assert.notEqual(created.Id, added.Id);
    const listing = await request(`${emu.url}/compute/script/${scriptId}/secrets`, { headers: { AccessKey: String(emu.fixtures.accessKey) } });
    const text = await listing.body.text();
    assert.deepEqual(JSON.parse(text).Secrets.map((s: { Name: string }) => s.Name), ["TOKEN", "OTHER"]);
    assert.ok(!/value/.test(text), "no value in the listing");

    await assert.rejects(client.addSecret(scriptId, { Name: "TOKEN", Secret: "y" }), (e: unknown) => e instanceof ValidationError && e.errorKey === "edgescript.secret_name_taken");
    await assert.rejects(client.addSecret(scriptId, { Name: "", Secret: "y" }), InvalidRequestError);
    const tooLong = await request(`${emu.url}/compute/script/${scriptId}/secrets`, {
      method: "POST",
      headers: { AccessKey: String(emu.fixtures.accessKey), "content-type": "application/json" },
      body: JSON.stringify({ Name: "LONG", Secret: "z".repeat(4097) }),
    });
    const refusal = (await tooLong.body.json()) as { Field: string; Message: string };
    assert.deepEqual([tooLong.statusCode, refusal.Field], [400, "Secret"]);
    assert.ok(!refusal.Message.includes("zzzz"), "the value is not echoed");

    await emu.client().edgeScripts.addVariable(scriptId, { Name: "SHARED", Required: false });
    await assert.rejects(client.addSecret(scriptId, { Name: "SHARED", Secret: "v" }), (e: unknown) => e instanceof ValidationError && e.errorKey === "edgescript.name_in_use");
    await assert.rejects(client.upsertSecret(scriptId, { Name: "SHARED", Secret: "v" }), (e: unknown) => e instanceof ValidationError && e.errorKey === "edgescript.name_in_use");

    await client.deleteSecret(scriptId, added.Id);
    await assert.rejects(client.deleteSecret(scriptId, added.Id), NotFoundError);
    await assert.rejects(client.listSecrets(999_999), NotFoundError);
  });
});

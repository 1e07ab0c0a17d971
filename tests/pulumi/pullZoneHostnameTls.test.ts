import assert from "node:assert/strict";
import * as bunnynet from "bunnynet-pulumi/dist/index.js";
import { issueCertificate, type IssuedCertificate } from "bunnynet-emulator/dist/certificates.js";
import { CertificateProvision } from "bunnynet-pulumi/dist/schemas/pullZones.js";
import type { TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { HostError, ProviderHost, UNKNOWN_VALUE, named, secret, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";

import { refusal, takeOverValue } from "../support/takeOver";

const TYPE = "PullZoneHostname";
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * PullZoneHostname's certificates and force-SSL through the SDK's provider host: check refuses bad certificates
 * (naming the property, no API call, never echoing the key), a free certificate (retried while DNS is not ready,
 * rolled back when it cannot be issued in time), custom certificates, in-place changes and drift on refresh.
 * Test certificates are made at run time (emulator/certificates.ts); no key is ever committed.
 */
describe("pulumi: PullZoneHostname TLS and force-SSL through the provider host", function () {
  this.timeout(60_000);
  let emu: TestEmulator;
  let host: ProviderHost;
  let pullZoneId: number;
  let counter = 0;
  const uniqueHostname = () => `tls${++counter}.pulumi-test.example`;
  /** Every private key the tests made: none may appear in a failure, an error or the host's output. */
  const keys: string[] = [];
  const certificateFor = async (hostnames: string[], extra: Partial<Parameters<typeof issueCertificate>[0]> = {}): Promise<IssuedCertificate> => {
    const issued = await issueCertificate({ hostnames, ...extra });
    keys.push(issued.privateKeyPem);
    return issued;
  };
  const custom = (c: IssuedCertificate) => ({ certificate: c.certificatePem, privateKey: secret(c.privateKeyPem) });

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
    pullZoneId = Number(emu.fixtures.pullZoneId);
  });
  after(() => stopEmulatorAndHost(emu, host));
  const CONFIG = () => hostConfig(emu);

  const onZone = (hostname: string) => emu.client().pullZones.findHostname(pullZoneId, hostname, { withCertificate: true });
  const loads = async () => (await emu.requests()).filter((r) => r.route === "/pullzone/loadFreeCertificate");

  async function checked(props: Record<string, unknown>) {
    const res = await host.check(TYPE, {}, props);
    assert.deepEqual(res.failures, []);
    return res.inputs;
  }

  /** The key body without its PEM armour, and its first half: neither may leak. */
  function assertNoKeyIn(what: string, text: string) {
    for (const key of keys) {
      const body = key.replace(/-----[A-Z ]+-----/g, "").replace(/\s/g, "");
      assert.ok(!text.includes(body.slice(0, 40)), `a private key in ${what}`);
      assert.ok(!text.includes(body.slice(body.length / 2, body.length / 2 + 40)), `part of a private key in ${what}`);
    }
  }

  describe("check", () => {
    it("refuses bad certificates and force-SSL without TLS, naming each property, without an API call or the key in any reason", async () => {
      const hostname = uniqueHostname();
      const good = await certificateFor([hostname]);
      const other = await certificateFor(["other.pulumi-test.example"]);
      const expired = await certificateFor([hostname], { notBefore: new Date(Date.now() - 100 * DAY_MS), notAfter: new Date(Date.now() - DAY_MS) });
      await emu.markRequests();
      const failuresOf = async (props: Record<string, unknown>) =>
        Object.fromEntries((await host.check(TYPE, {}, { pullZoneId, hostname, ...props })).failures.map(named).map((f) => [f.property, f.reason]));
      const cases: [Record<string, unknown>, Record<string, RegExp>][] = [
        [{ tls: "maybe" }, { tls: /must be "none", "free", or \{ certificate, privateKey \}/ }],
        [{ tls: { certificate: "not a certificate", privateKey: secret(good.privateKeyPem) } }, { "tls.certificate": /is not a PEM certificate/ }],
        [{ tls: { certificate: good.certificatePem } }, { "tls.privateKey": /PEM private key .* is required/ }],
        [{ tls: { certificate: good.certificatePem, privateKey: secret("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") } }, { "tls.privateKey": /is not a readable PEM private key/ }],
        [{ tls: { certificate: good.certificatePem, privateKey: secret(other.privateKeyPem) } }, { "tls.privateKey": /does not match the certificate/ }],
        [{ tls: custom(other) }, { "tls.certificate": new RegExp(`does not cover ${hostname.replace(/\./g, "\\.")} \\(it covers other\\.pulumi-test\\.example\\)`) }],
        [{ tls: custom(expired) }, { "tls.certificate": /^expired on \d{4}-/ }],
        [{ tls: { ...custom(good), colour: "blue" } }, { "tls.colour": /unknown property/ }],
        [{ forceSsl: true }, { forceSsl: /needs a certificate: set tls to "free" or to a custom certificate/ }],
        [{ tls: "free", certificateWaitSeconds: -1 }, { certificateWaitSeconds: /./ }],
      ];
      for (const [props, expected] of cases) {
        const failures = await failuresOf(props);
        assert.deepEqual(Object.keys(failures).sort(), Object.keys(expected).sort(), JSON.stringify(Object.keys(props)));
        for (const [property, pattern] of Object.entries(expected)) assert.match(failures[property], pattern);
        assertNoKeyIn("a check failure", JSON.stringify(failures));
      }
      assert.equal((await emu.requests()).length, 0, "no API call");
    });

    it("accepts force-SSL without tls on a b-cdn.net hostname (bunny.net's certificate), and leaves what is not known yet (preview) to later", async () => {
      await checked({ pullZoneId, hostname: "emulator-main.b-cdn.net", forceSsl: true });
      const c = await certificateFor(["x.pulumi-test.example"]);
      const res = await host.check(TYPE, {}, { pullZoneId, hostname: UNKNOWN_VALUE, tls: custom(c), forceSsl: true });
      assert.deepEqual(res.failures, []);
      // Parts of tls not known yet at preview are not judged; the known part still is.
      for (const tls of [{ certificate: c.certificatePem, privateKey: UNKNOWN_VALUE }, { certificate: UNKNOWN_VALUE, privateKey: secret(c.privateKeyPem) }, UNKNOWN_VALUE]) {
        assert.deepEqual((await host.check(TYPE, {}, { pullZoneId, hostname: "x.pulumi-test.example", tls, forceSsl: true })).failures, []);
      }
      const wrongHost = await host.check(TYPE, {}, { pullZoneId, hostname: "y.pulumi-test.example", tls: { certificate: c.certificatePem, privateKey: UNKNOWN_VALUE } });
      assert.deepEqual(wrongHost.failures.map(named).map((f) => f.property), ["tls.certificate"]);
    });
  });

  describe("life cycle", () => {
    it("a free certificate with force-SSL: issued, forced, with the certificate's issuer, expiry and SANs as outputs", async () => {
      const hostname = uniqueHostname();
      const inputs = await checked({ pullZoneId, hostname, tls: "free", forceSsl: true });
      const { id, outputs } = await host.create(TYPE, inputs);
      const real = (await onZone(hostname))!;
      assert.equal(id, String(real.Id));
      assert.deepEqual([real.HasCertificate, real.ForceSSL, real.CertificateProvisionType], [true, true, CertificateProvision.Http01]);
      const certificate = outputs.certificate as bunnynet.CertificateDetails;
      assert.deepEqual(certificate.subjectAltNames, [hostname]);
      assert.match(certificate.issuer, /Emulator Free Certificates/);
      assert.ok(Date.parse(certificate.expiresAt) > Date.now() + 30 * DAY_MS);
      assert.deepEqual({ tls: outputs.tls, forceSsl: outputs.forceSsl, hasCertificate: outputs.hasCertificate }, { tls: "free", forceSsl: true, hasCertificate: true });
      const read = await host.read(TYPE, id, outputs, inputs);
      assert.deepEqual(read.outputs, outputs, "refresh of an unchanged hostname changes nothing");
    });

    it("a custom certificate: installed; another certificate and force-SSL change in place (same id); tls none removes it", async () => {
      const hostname = uniqueHostname();
      const first = await certificateFor([hostname]);
      const second = await certificateFor([`*.pulumi-test.example`], { keyType: "rsa" });
      const inputs = await checked({ pullZoneId, hostname, tls: custom(first) });
      const created = await host.create(TYPE, inputs);
      const fingerprint = (o: Record<string, unknown>) => (o.certificate as bunnynet.CertificateDetails | undefined)?.fingerprintSha256;
      assert.equal((await onZone(hostname))?.CertificateProvisionType, CertificateProvision.Custom);

      const changed = await checked({ pullZoneId, hostname, tls: custom(second), forceSsl: true });
      assert.deepEqual(await host.diff(TYPE, created.id, created.outputs, changed), { changes: "some", replaces: [], deleteBeforeReplace: false });
      const updated = await host.update(TYPE, created.id, created.outputs, changed);
      assert.equal(updated.hostnameId, created.outputs.hostnameId);
      assert.notEqual(fingerprint(updated), fingerprint(created.outputs));
      assert.deepEqual((updated.certificate as bunnynet.CertificateDetails).subjectAltNames, ["*.pulumi-test.example"]);
      assert.equal((await onZone(hostname))?.ForceSSL, true);

      const none = await checked({ pullZoneId, hostname, tls: "none" });
      assert.deepEqual(await host.diff(TYPE, created.id, updated, none), { changes: "some", replaces: [], deleteBeforeReplace: false });
      const removed = await host.update(TYPE, created.id, updated, none);
      assert.deepEqual([removed.hasCertificate, removed.forceSsl, removed.certificate], [false, false, undefined]);
      const real = (await onZone(hostname))!;
      assert.deepEqual([real.HasCertificate, real.ForceSSL], [false, false]);
      assertNoKeyIn("the host's output", host.logs());
    });

    it("refresh shows a certificate removed or replaced outside Pulumi, so the next up puts the program's back", async () => {
      const hostname = uniqueHostname();
      const mine = await certificateFor([hostname]);
      const theirs = await certificateFor([hostname]);
      const inputs = await checked({ pullZoneId, hostname, tls: custom(mine) });
      const { id, outputs } = await host.create(TYPE, inputs);
      await emu.client().pullZones.addCertificate(pullZoneId, hostname, theirs.certificatePem, theirs.privateKeyPem);
      host = await host.nextDeployment(CONFIG());
      const replaced = await host.read(TYPE, id, outputs, inputs);
      assert.notEqual((replaced.inputs!.tls as { certificate: string }).certificate, mine.certificatePem);
      assert.equal(await host.diff(TYPE, id, replaced.outputs, inputs).then((d) => d.changes), "some");
      await emu.client().pullZones.removeCertificate(pullZoneId, hostname);
      host = await host.nextDeployment(CONFIG());
      const removed = await host.read(TYPE, id, outputs, inputs);
      assert.equal(removed.inputs!.tls, "none");
      await host.update(TYPE, id, removed.outputs, inputs);
      assert.equal((await onZone(hostname))?.HasCertificate, true);
    });

    it("a free certificate whose DNS is not ready for two loads is retried and issued on the third", async () => {
      const hostname = uniqueHostname();
      await emu.dnsPending(hostname, 2);
      const inputs = await checked({ pullZoneId, hostname, tls: "free", certificateWaitSeconds: 30 });
      await emu.markRequests();
      const { outputs } = await host.create(TYPE, inputs);
      assert.deepEqual((await loads()).map((r) => r.status), [400, 400, 200]);
      assert.equal(outputs.hasCertificate, true);
    });

    it("a free certificate the certificate authority rate-limits stops at the first refusal (no DNS wait), says when to retry, and is rolled back", async () => {
      const hostname = `www.${String(emu.fixtures.certificateRateLimitedDomain)}`;
      const inputs = await checked({ pullZoneId, hostname, tls: "free", certificateWaitSeconds: 3600 });
      await emu.markRequests();
      await assert.rejects(host.create(TYPE, inputs), (e: unknown) => {
        assert.ok(e instanceof HostError, String(e));
        assert.match(e.message, /too many certificates for its domain this week/);
        assert.match(e.message, /Run again after \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
        assert.match(e.message, /urn:ietf:params:acme:error:rateLimited/);
        assert.match(e.message, /The hostname was removed again/);
        return true;
      });
      assert.deepEqual((await loads()).map((r) => r.status), [400], "one load, no retry loop");
      assert.equal(await onZone(hostname), undefined);
    });

    it("an existing hostname on the zone without a certificate is taken over with adoptExisting, or the refusal's command (an interrupted up added it), and given the certificate asked for", async () => {
      const hostname = uniqueHostname();
      await emu.client().pullZones.addHostname(pullZoneId, hostname);
      const inputs = await checked({ pullZoneId, hostname, tls: "free", forceSsl: true, adoptExisting: true });
      const { outputs } = await host.create(TYPE, inputs);
      assert.deepEqual([outputs.hasCertificate, outputs.forceSsl], [true, true]);
      const plain = await checked({ pullZoneId, hostname: uniqueHostname(), tls: "free" });
      await emu.client().pullZones.addHostname(pullZoneId, String(plain.hostname));
      const existing = (await emu.client().pullZones.getPullZone(pullZoneId)).Hostnames.find((h) => h.Value === plain.hostname)!;
      // Nothing shows which stack added a hostname: without adoptExisting it is refused, with the command that takes it.
      const adopting = await host.nextDeployment(hostConfig(emu), { env: { BUNNYNET_ADOPT: takeOverValue(await refusal(host.create(TYPE, plain))) } });
      const taken = await adopting.create(TYPE, plain);
      assert.deepEqual([taken.id, taken.outputs.hasCertificate], [String(existing.Id), true]);
      host = await adopting.nextDeployment(hostConfig(emu));
    });
  });

  describe("a free certificate that cannot be issued in time (DNS not pointing at bunny.net yet)", () => {
    it("fails the up with the reason and leaves nothing behind; the next up, once DNS is ready, succeeds", async () => {
      const hostname = uniqueHostname();
      await emu.dnsPending(hostname, 1000);
      const harness = new ProgramHarness({
        project: "tls-test",
        config: { "bunnynet:apiKey": String(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url },
        secretConfig: ["bunnynet:apiKey"],
        providerHost: host,
      });
      const program = () => {
        const www = new bunnynet.PullZoneHostname("www", { pullZoneId, hostname, tls: "free", forceSsl: true, certificateWaitSeconds: 1 });
        return { expiresAt: www.certificate.apply((c) => c?.expiresAt) };
      };
      await emu.markRequests();
      await assert.rejects(harness.up(program), (e: unknown) => {
        const text = [String((e as Error).message), ...((e as AggregateError).errors ?? []).map((x: Error) => x.message)].join("\n");
        assert.match(text, new RegExp(`The free certificate for ${hostname.replace(/\./g, "\\.")} was not issued: bunny.net could not issue it after \\d+ attempts in 1 s`));
        assert.match(text, /do not point to bunny\.net yet \(pullzone\.certificate_dns_not_ready\)/);
        // A name under .example can never resolve publicly: no advice to point its DNS here (issue 37).
        assert.match(text, /is under \.example, a name reserved never to resolve in public DNS, so no certificate authority can issue a certificate for it/);
        assert.doesNotMatch(text, /Point .* DNS/);
        assert.match(text, /The hostname was removed again, so nothing is left behind and the next run starts over\./);
        return true;
      });
      assert.ok((await loads()).length >= 2, "retried");
      assert.equal(harness.resources().length, 0, "nothing in the state");
      assert.equal(await onZone(hostname), undefined, "no half-created hostname on the zone");

      await emu.dnsPending(hostname, 0);
      const run = await harness.up(program);
      assert.deepEqual(run.steps.map((s) => s.op), ["create"]);
      assert.ok(Date.parse(String(run.outputs.expiresAt)) > Date.now());
      assert.deepEqual([(await onZone(hostname))?.HasCertificate, (await onZone(hostname))?.ForceSSL], [true, true]);
      await harness.destroy();
      assert.equal(await onZone(hostname), undefined);
    });

    it("a custom certificate whose key the program passes in plain text is still stored as a secret", async () => {
      const hostname = uniqueHostname();
      const c = await certificateFor([hostname]);
      const harness = new ProgramHarness({ project: "tls-test", config: { "bunnynet:apiKey": String(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: host });
      await harness.up(() => ({ id: new bunnynet.PullZoneHostname("own", { pullZoneId, hostname, tls: { certificate: c.certificatePem, privateKey: c.privateKeyPem } }).hostnameId }));
      const [stored] = harness.resources();
      assert.deepEqual(stored.secretKeys, ["tls"]);
      assert.equal((stored.outputs.tls as { privateKey: string }).privateKey, c.privateKeyPem);
      await harness.destroy();
    });

    it("an add whose answer was lost (500 after the server acted) is rolled back too when the certificate fails", async () => {
      const hostname = uniqueHostname();
      await emu.dnsPending(hostname, 1000);
      const inputs = await checked({ pullZoneId, hostname, tls: "free", certificateWaitSeconds: 0 });
      await emu.faults({ rules: [{ path: "/addHostname$", method: "POST", errorRate: 1, errorStatus: 500, phase: "after" }] });
      try {
        await assert.rejects(host.create(TYPE, inputs), /The hostname was removed again, so nothing is left behind/);
      } finally {
        await emu.clearFaults();
      }
      assert.equal(await onZone(hostname), undefined);
    });

    it("when the roll-back itself fails, the error says what is left and how to adopt it; adoptExisting then finishes the job", async () => {
      const hostname = uniqueHostname();
      await emu.dnsPending(hostname, 1000);
      const inputs = await checked({ pullZoneId, hostname, tls: "free", certificateWaitSeconds: 0 });
      await emu.faults({ rules: [{ path: "/removeHostname$", method: "DELETE", errorRate: 1, errorStatus: 503, phase: "before" }] });
      try {
        await assert.rejects(host.create(TYPE, inputs), (e: unknown) => {
          assert.ok(e instanceof HostError);
          assert.match(e.message, /after 1 attempt in 0 s/);
          assert.match(e.message, new RegExp(`Removing the hostname just added failed too \\(DELETE /pullzone/\\d+/removeHostname answered 503.*remove ${hostname.replace(/\./g, "\\.")} from pull zone \\d+, or set adoptExisting: true`));
          return true;
        });
      } finally {
        await emu.clearFaults();
      }
      assert.ok(await onZone(hostname), "left behind, as the error said");
      await emu.dnsPending(hostname, 0);
      const { outputs } = await host.create(TYPE, { ...inputs, adoptExisting: true });
      assert.equal(outputs.hasCertificate, true);
    });
  });
});

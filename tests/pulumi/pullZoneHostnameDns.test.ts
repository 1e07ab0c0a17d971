import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import type { TestEmulator } from "../support/emulator";
import { HostError, type ProviderHost, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";

const TYPE = "PullZoneHostname";
/** CNAME, A and PullZone in the core document's DnsRecordTypes. */
const RECORD = { A: 0, CNAME: 2, PullZone: 7 } as const;

/**
 * A free certificate for a name in one of the account's DNS zones is issued only once a record there points at the
 * pull zone (bunny.net: `The domain … is not pointing to our servers.`, the Terraform provider's hostname test, step 4);
 * the hostname waits for it within `certificateWaitSeconds` (issue 22: a certificate in the same `up` as its record).
 */
describe("pulumi: PullZoneHostname's free certificate waits for the account's own DNS", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let pullZoneId: number;
  let cdnHostname: string;
  let dnsZoneId: number;
  const domain = "waits-for-dns.example";

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
    const client = emu.client();
    const zone = await client.pullZones.createPullZone({ Name: "dns-wait-cdn", OriginUrl: "https://origin.example" });
    pullZoneId = zone.Id;
    cdnHostname = `${zone.Name}.b-cdn.net`;
    dnsZoneId = (await client.dns.addZone(domain)).Id;
  });
  after(() => stopEmulatorAndHost(emu, host));

  const create = async (hostname: string, certificateWaitSeconds: number) => {
    const checked = await host.check(TYPE, {}, { pullZoneId, hostname, tls: "free", forceSsl: true, certificateWaitSeconds });
    assert.deepEqual(checked.failures, []);
    return host.create(TYPE, checked.inputs);
  };
  const onZone = (hostname: string) => emu.client().pullZones.findHostname(pullZoneId, hostname);

  it("a name no record points at the zone is refused with the API's message; the hostname is rolled back", async () => {
    await emu.client().dns.addRecord(dnsZoneId, { Type: RECORD.A, Name: "elsewhere", Value: "192.0.2.1" });
    await assert.rejects(create(`elsewhere.${domain}`, 0), (e: unknown) => e instanceof HostError && /is not pointing to our servers/.test(e.message) && /removed again/.test(e.message));
    assert.equal(await onZone(`elsewhere.${domain}`), undefined);
  });

  it("a CNAME to the zone's b-cdn.net hostname made while the hostname waits: the certificate is issued in the same create", async () => {
    const hostname = `www.${domain}`;
    const creating = create(hostname, 60);
    await sleep(1500);
    assert.equal((await onZone(hostname))?.HasCertificate, false, "still waiting for DNS");
    await emu.client().dns.addRecord(dnsZoneId, { Type: RECORD.CNAME, Name: "www", Value: cdnHostname });
    const res = await creating;
    assert.deepEqual([res.outputs.hasCertificate, res.outputs.forceSsl], [true, true]);
    assert.deepEqual((res.outputs.certificate as { subjectAltNames: string[] }).subjectAltNames, [hostname]);
  });

  it("a PullZone record of the zone points at it too; a name outside every DNS zone of the account is not judged", async () => {
    await emu.client().dns.addRecord(dnsZoneId, { Type: RECORD.PullZone, Name: "cdn", PullZoneId: pullZoneId });
    assert.equal((await create(`cdn.${domain}`, 0)).outputs.hasCertificate, true);
    assert.equal((await create("static.not-in-the-account.example", 0)).outputs.hasCertificate, true);
  });
});

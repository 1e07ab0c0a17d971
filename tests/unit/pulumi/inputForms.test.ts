import assert from "node:assert/strict";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { accessListEntriesProblem } from "bunnynet-pulumi/dist/resources/accessListEntries.js";
import { AccessListType } from "bunnynet-pulumi/dist/schemas/shieldEnums.js";
import { named } from "bunnynet-emulator/dist/testing/engineMessages.js";
import { check } from "./registered";

/** The failures of a check as `property: reason` (a nested property is named at the start of the reason: `named` reads it). */
const failuresOf = async (type: string, news: Record<string, unknown>) =>
  ((await check(type, news)).failures ?? []).map(named).map((f) => `${f.property}: ${f.reason}`);

describe("unit: inputs of the wrong form are refused at check, naming the property", () => {
  describe("AccessList entries, by the list's type", () => {
    const { IP, CIDR, ASN, Country, Organization, JA4 } = AccessListType;

    it("IP: IPv4 and IPv6 addresses, nothing else", () => {
      assert.equal(accessListEntriesProblem(IP, ["192.0.2.1", "2001:db8::1"]), undefined);
      for (const bad of ["999.999.1.1", "192.0.2.0/24", "fe80::1%eth0", "example.com", "01.2.3.4"]) assert.match(accessListEntriesProblem(IP, [bad]) ?? "", /IP address/, bad);
    });

    it("CIDR: an address with a prefix its family allows", () => {
      assert.equal(accessListEntriesProblem(CIDR, ["10.0.0.0/8", "192.0.2.1/32", "2001:db8::/32", "::/0"]), undefined);
      for (const bad of ["10.0.0.0", "10.0.0.0/33", "2001:db8::/129", "999.0.0.0/8", "10.0.0.0/-1", "10.0.0.0/8/8"]) assert.match(accessListEntriesProblem(CIDR, [bad]) ?? "", /CIDR range/, bad);
    });

    it("ASN: 1..4294967295, AS before it or not", () => {
      assert.equal(accessListEntriesProblem(ASN, ["13335", "AS13335", "as1", "4294967295"]), undefined);
      for (const bad of ["0", "4294967296", "AS", "AS-1", "Cloudflare"]) assert.match(accessListEntriesProblem(ASN, [bad]) ?? "", /autonomous system number/, bad);
    });

    it("Country: an assigned ISO 3166-1 alpha-2 code in upper case", () => {
      assert.equal(accessListEntriesProblem(Country, ["DE", "KP", "RU", "US"]), undefined);
      for (const bad of ["XX1", "XX", "de", "DEU", "UK", "EU"]) assert.match(accessListEntriesProblem(Country, [bad]) ?? "", /ISO 3166-1 alpha-2/, bad);
    });

    it("Organization and JA4 entries are taken as written", () => {
      assert.equal(accessListEntriesProblem(Organization, ["Example Corp, Inc."]), undefined);
      assert.equal(accessListEntriesProblem(JA4, ["t13d1516h2_8daaf6152771_b186095e22b6"]), undefined);
    });

    it("names the first three entries at fault and counts the rest", () => {
      assert.equal(
        accessListEntriesProblem(Country, ["DE", "A1", "B2", "C3", "D4", "E5"]),
        '"A1", "B2", "C3" and 2 more are not valid in a list of type Country: each entry must be an ISO 3166-1 alpha-2 country code in upper case, such as DE or US',
      );
    });

    it("check names entries, and judges them only once the type and the entries are known", async () => {
      const list = { shieldZoneId: 1, name: "l", action: "Block" };
      assert.deepEqual(await failuresOf("AccessList", { ...list, type: "Country", entries: ["DE", "XX1"] }), [
        'entries: "XX1" is not valid in a list of type Country: each entry must be an ISO 3166-1 alpha-2 country code in upper case, such as DE or US',
      ]);
      assert.match((await failuresOf("AccessList", { ...list, type: "IP", entries: ["999.999.1.1"] }))[0], /^entries: "999\.999\.1\.1" is not valid in a list of type IP/);
      assert.deepEqual(await failuresOf("AccessList", { ...list, type: unknownValue, entries: ["XX1"] }), []);
      assert.deepEqual(await failuresOf("AccessList", { ...list, type: "Country", entries: ["DE", unknownValue] }), []);
    });
  });

  it("ScriptVariable and ScriptSecret: a name an environment holds (letters, digits, _, no digit first)", async () => {
    assert.deepEqual(await failuresOf("ScriptVariable", { scriptId: 1, name: "API_BASE_url2" }), []);
    assert.deepEqual(await failuresOf("ScriptVariable", { scriptId: 1, name: "_private" }), []);
    for (const bad of ["BAD NAME", "2FA_KEY", "API-KEY", "ÄPI", "a=b"]) {
      assert.deepEqual(await failuresOf("ScriptVariable", { scriptId: 1, name: bad }), ["name: must be an environment variable's name: letters, digits and _, not beginning with a digit (such as API_BASE_URL)"], bad);
    }
    assert.deepEqual(await failuresOf("ScriptVariable", { scriptId: 1, name: "" }), ["name: must not be empty"], "the empty name once, by its length");
    assert.deepEqual((await check("ScriptSecret", { scriptId: 1, name: "BAD NAME", value: "v" })).failures?.map((f) => named(f).property), ["name"]);
  });

  it("VideoLibrary: every bitrate at least 1, the watermark in 0..100 (%), the captions' size and the player version in range", async () => {
    assert.deepEqual(await failuresOf("VideoLibrary", { name: "v", bitrate720p: 2800, watermarkWidth: 100, watermarkPositionLeft: 0, captionsFontSize: 0, playerVersion: 2 }), []);
    assert.deepEqual(await failuresOf("VideoLibrary", { name: "v", bitrate720p: -100 }), ["bitrate720p: must be a bitrate in kbit/s, at least 1"]);
    const bitrates = ["bitrate240p", "bitrate360p", "bitrate480p", "bitrate720p", "bitrate1080p", "bitrate1440p", "bitrate2160p"];
    const wrong = { ...Object.fromEntries(bitrates.map((b) => [b, 0])), watermarkPositionLeft: -1, watermarkPositionTop: 101, watermarkWidth: 150, watermarkHeight: -5, captionsFontSize: -1, playerVersion: 0 };
    const failed = (await check("VideoLibrary", { name: "v", ...wrong })).failures?.map((f) => named(f).property).sort();
    assert.deepEqual(failed, Object.keys(wrong).sort());
  });

  it("Database: a region code that is none of the regions is refused, naming them", async () => {
    assert.deepEqual(await failuresOf("Database", { name: "db", primaryRegions: ["DE", "SYD"], replicaRegions: ["NY"] }), []);
    const [failure] = await failuresOf("Database", { name: "db", primaryRegions: ["XX"] });
    assert.equal(failure, "primaryRegions.0: must be a database region code, one of DE, UK, FR, NL, SE, PL, ES, IT, NY, LA, CHI, DAL, MIA, SEA, TOR, SG, JP, HK, IN, SYD, BR, ZA");
    assert.match((await failuresOf("Database", { name: "db", primaryRegions: ["DE"], replicaRegions: ["de"] }))[0], /^replicaRegions\.0: must be a database region code/);
  });
});

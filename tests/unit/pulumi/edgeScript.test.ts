import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { check, checked, implementation } from "./registered";

const { specialSigKey, specialAssetSig } = pulumi.runtime;
const diff = (olds: Record<string, unknown>, news: Record<string, unknown>) => implementation("EdgeScript").diff("1", olds, news);
const sha256 = (text: string) => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;

describe("unit: EdgeScript check and diff", () => {
  const asset = { [specialSigKey]: specialAssetSig, text: "export default 1" };

  it("fingerprints the code, text or asset alike, and drops the engine's hash", async () => {
    const fromText = await checked("EdgeScript", { name: "s", type: "Middleware", code: "export default 1" });
    const fromAsset = await checked("EdgeScript", { name: "s", type: "Middleware", code: { ...asset, hash: "abc" } });
    assert.equal(fromText.fingerprint, sha256("export default 1"));
    assert.equal(fromAsset.fingerprint, fromText.fingerprint);
    assert.deepEqual(fromAsset.code, asset);
  });

  it("does not trust a fingerprint given by hand: check derives it again", async () => {
    const inputs = await checked("EdgeScript", { name: "s", type: "Middleware", code: "a", fingerprint: "sha256:forged" });
    assert.equal(inputs.fingerprint, sha256("a"));
  });

  it("refuses an archive, a remote asset and a name for a Middleware script's pull zone", async () => {
    const archive = { [specialSigKey]: pulumi.runtime.specialArchiveSig, assets: {} };
    const remote = { [specialSigKey]: specialAssetSig, uri: "https://example.com/a.js" };
    for (const code of [archive, remote]) assert.deepEqual((await check("EdgeScript", { name: "s", type: "Middleware", code })).failures?.map((f) => f.property), ["code"]);
    const named = await check("EdgeScript", { name: "s", type: "Middleware", code: "x", linkedPullZoneName: "zone" });
    assert.deepEqual(named.failures?.map((f) => f.property), ["linkedPullZoneName"]);
  });

  it("compares the code by its fingerprint: the engine's elided old asset is no change, new content is an in-place change", async () => {
    const olds = await checked("EdgeScript", { name: "s", type: "Standalone", code: asset });
    const elided = { [specialSigKey]: specialAssetSig, hash: "abc" };
    assert.deepEqual(await diff({ ...olds, code: elided }, olds), { changes: false, replaces: [], deleteBeforeReplace: false });
    const news = await checked("EdgeScript", { name: "s", type: "Standalone", code: { ...asset, text: "export default 2" } });
    assert.deepEqual(await diff({ ...olds, code: elided }, news), { changes: true, replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(await diff(olds, { ...olds, publish: false }), { changes: true, replaces: [], deleteBeforeReplace: false });
  });
});

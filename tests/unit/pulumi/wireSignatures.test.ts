import assert from "node:assert/strict";
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import * as ours from "bunnynet-pulumi/dist/pulumi/wireSignatures.js";

// The plugin reads these without loading the SDK's runtime (wireSignatures.ts): they must stay the SDK's own values.
describe("wire signatures: the SDK's constants, written without loading its runtime", () => {
  it("each equals the SDK's", () => {
    assert.equal(ours.unknownValue, rpc.unknownValue);
    assert.equal(ours.specialSigKey, rpc.specialSigKey);
    assert.equal(ours.specialAssetSig, rpc.specialAssetSig);
    assert.equal(ours.specialArchiveSig, rpc.specialArchiveSig);
  });
});

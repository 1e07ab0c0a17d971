import assert from "node:assert/strict";
import { Config } from "@pulumi/pulumi/cmd/dynamic-provider/config";
import { editDistance, nearestName } from "bunnynet-pulumi/dist/nearestName.js";
import { unknownSettingKeys } from "bunnynet-pulumi/dist/settingKeys.js";
import { configFailures } from "bunnynet-pulumi/dist/plugin/configuration.js";
import { ProviderSession } from "bunnynet-pulumi/dist/pulumi/session.js";
import { UNKNOWN } from "bunnynet-pulumi/dist/pulumi/wire.js";

const SETTINGS = ["apiKey", "apiUrl", "streamApiUrl", "timeoutMs", "maxRetries"];

describe("unit: the name a mistyped one meant", () => {
  it("counts insertions, deletions, substitutions and a swap of neighbours as one edit each", () => {
    assert.equal(editDistance("apiKey", "apiKey"), 0);
    assert.equal(editDistance("apiKeyy", "apiKey"), 1);
    assert.equal(editDistance("apiUrl", "apiUr"), 1);
    assert.equal(editDistance("apiKey", "apiKez"), 1);
    assert.equal(editDistance("aipKey", "apiKey"), 1, "a swap");
    assert.equal(editDistance("", "abc"), 3);
    assert.equal(editDistance("kitten", "sitting"), 3);
  });

  it("suggests the nearest known name within a slip's reach, ignoring case", () => {
    assert.equal(nearestName("apiKeyy", SETTINGS), "apiKey");
    assert.equal(nearestName("apiUrll", SETTINGS), "apiUrl");
    assert.equal(nearestName("apikey", SETTINGS), "apiKey");
    assert.equal(nearestName("api_key", SETTINGS), "apiKey");
    assert.equal(nearestName("timeout", SETTINGS), "timeoutMs");
    assert.equal(nearestName("streamUrl", SETTINGS), "streamApiUrl");
  });

  it("suggests nothing for another word", () => {
    assert.equal(nearestName("region", SETTINGS), undefined);
    assert.equal(nearestName("x", SETTINGS), undefined);
    assert.equal(nearestName("anything", []), undefined);
  });
});

describe("unit: configuration keys that are no setting", () => {
  it("names the key and the setting meant, in the words of stack config or of an explicit provider", () => {
    assert.deepEqual(unknownSettingKeys(["apiKeyy", "apiUrl"], [], { origin: "pulumi" }), [
      "bunnynet:apiKeyy is not a setting of bunnynet: did you mean bunnynet:apiKey? (`pulumi config rm bunnynet:apiKeyy` removes it)",
    ]);
    assert.deepEqual(unknownSettingKeys(["apiUrll"], [], { origin: "provider", providerName: "prod" }), ['apiUrll is no argument of bunnynet.Provider "prod": did you mean apiUrl?']);
  });

  it("lists the settings when none is near, and accepts the keys it is told to", () => {
    const [reason] = unknownSettingKeys(["region"], [], { origin: "pulumi" });
    assert.match(reason, /^bunnynet:region is not a setting of bunnynet: the settings are bunnynet:apiKey, bunnynet:apiUrl, .*bunnynet:minDownloadBytesPerSecond /);
    assert.deepEqual(unknownSettingKeys(["version", "apiKey"], ["version"], { origin: "pulumi" }), []);
  });

  it("the plugin's CheckConfig refuses an unknown key (also beside an unknown value) without naming it as the property, and takes the engine's keys", () => {
    const failures = configFailures({ apiKey: UNKNOWN, apiKeyy: "k" }, undefined);
    assert.deepEqual(failures.map((f) => f.property), [""], "the engine would print the value of a named property");
    assert.match(failures[0].reason, /bunnynet:apiKeyy .* did you mean bunnynet:apiKey\?/);
    assert.deepEqual(configFailures({ apiKey: "k", apiUrl: "https://api.example", version: "1.2.3", pluginDownloadURL: "github://x" }, undefined), []);
    assert.match(configFailures({ apiKey: "k", apiUrll: "https://x" }, "second")[0].reason, /^apiUrll is no argument of bunnynet.Provider "second": did you mean apiUrl\?$/);
  });

  it("the dynamic provider judges only the bunnynet: keys of the whole stack config it is given (the SDK's own Config)", () => {
    const session = new ProviderSession();
    const stackConfig = { "bunnynet:apiKey": "k", "bunnynet:apiUrll": "https://x", "aws:region": "eu-west-1", "my-project:apiKeyy": "v", version: "3.0.0" };
    session.configure(new Config(stackConfig, "my-project"));
    assert.equal(session.settingsProblem(), "bunnynet:apiUrll is not a setting of bunnynet: did you mean bunnynet:apiUrl? (`pulumi config rm bunnynet:apiUrll` removes it)");
    const { "bunnynet:apiUrll": _misspelt, ...fixed } = stackConfig;
    session.configure(new Config({ ...fixed, "bunnynet:apiUrl": "https://api.example" }, "my-project"));
    assert.equal(session.settingsProblem(), undefined);
  });

  it("an explicit dynamic provider's name key is no unknown setting", () => {
    const session = new ProviderSession();
    session.configure(new Config({ "bunnynet:provider": "prod", "bunnynet:apiKey": "k", "bunnynet:timeoutMS": 5 }, "p"));
    assert.equal(session.settingsProblem(), 'timeoutMS is no argument of bunnynet.Provider "prod": did you mean timeoutMs?');
  });
});

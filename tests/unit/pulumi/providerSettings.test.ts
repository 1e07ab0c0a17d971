import assert from "node:assert/strict";
import { ConfigurationError } from "bunnynet-pulumi/dist/http/errors.js";
import { settingsFromConfig } from "bunnynet-pulumi/dist/pulumi/session.js";
import { howToSet, refusedKeyHelp, resolveSettings, settingLabel } from "bunnynet-pulumi/dist/settings.js";

/** The settings of an explicit `bunnynet.Provider`, as its plugin reads them from its inputs: messages speak of its arguments. */
describe("unit: an explicit provider's settings", () => {
  const providerInputs: Record<string, string | number> = {
    "bunnynet:provider": "prod",
    "bunnynet:apiKey": "0123456789abcdef-prod",
    "bunnynet:apiUrl": "https://api.example",
    "bunnynet:maxRetries": 2,
  };
  const fromInputs = (inputs: Record<string, string | number>) => settingsFromConfig((name) => inputs[`bunnynet:${name}`]);

  it("reads the provider's inputs (numbers as numbers) with the provider's name, and stack config as before", () => {
    assert.deepEqual(fromInputs(providerInputs), {
      origin: "provider",
      providerName: "prod",
      apiKey: "0123456789abcdef-prod",
      apiUrl: "https://api.example",
      maxRetries: 2,
    });
    assert.deepEqual(fromInputs({ "bunnynet:apiKey": "k" }), { origin: "pulumi", apiKey: "k" });
    const settings = resolveSettings(fromInputs(providerInputs), {});
    assert.equal(settings.maxRetries, 2);
    assert.equal(settings.apiUrl, "https://api.example");
  });

  it("a wrong setting names the provider's argument, never stack config", () => {
    assert.equal(settingLabel("apiUrl", "provider"), "bunnynet.Provider's apiUrl");
    assert.equal(howToSet("apiKey", "provider"), "the `apiKey` argument of the bunnynet.Provider");
    assert.throws(
      () => resolveSettings(fromInputs({ ...providerInputs, "bunnynet:apiUrl": "not a url" }), {}),
      (e: unknown) => e instanceof ConfigurationError && e.message === 'bunnynet.Provider\'s apiUrl is not a URL: "not a url"',
    );
    assert.throws(() => resolveSettings(fromInputs({ ...providerInputs, "bunnynet:maxRetries": -1 }), {}), /^ConfigurationError: bunnynet\.Provider's maxRetries must be an integer >= 0/);
  });

  it("a refused key says which provider's key (its last four characters) and how to set another, without the key", () => {
    const help = refusedKeyHelp(resolveSettings(fromInputs(providerInputs), {}));
    assert.equal(help, 'The API key ending in prod from the apiKey of bunnynet.Provider "prod" was refused: set the account\'s API key with the `apiKey` argument of the bunnynet.Provider.');
    assert.ok(!help.includes("0123456789abcdef"));
  });
});

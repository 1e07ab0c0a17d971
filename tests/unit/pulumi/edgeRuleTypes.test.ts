import assert from "node:assert/strict";
import { ACTION_TYPE_NAMES, TRIGGER_TYPE_NAMES, edgeRuleFailures, enumName } from "bunnynet-pulumi/dist/resources/edgeRuleTypes.js";
import { EDGE_RULE_ACTION_TYPES, EDGE_RULE_MATCH_TYPES, EDGE_RULE_TRIGGER_TYPES } from "bunnynet-pulumi/dist/schemas/edgeRuleEnums.js";
import { UNKNOWN } from "bunnynet-pulumi/dist/pulumi/index.js";

const properties = (inputs: Record<string, unknown>) => edgeRuleFailures(inputs).map((f) => f.property);
const withAction = (type: string, parameters?: unknown) => ({ actions: [{ type, parameters }], triggers: [{ type: "Url", patterns: ["*"] }] });
const withTrigger = (trigger: Record<string, unknown>) => ({ actions: [{ type: "BlockRequest" }], triggers: [trigger] });

describe("unit: edge rule types", () => {
  it("names every action and trigger type of the Core document, by name in any case or by number, and nothing else", () => {
    assert.equal(ACTION_TYPE_NAMES.length, 36);
    assert.equal(TRIGGER_TYPE_NAMES.length, 14);
    for (const name of ACTION_TYPE_NAMES) {
      assert.equal(enumName(EDGE_RULE_ACTION_TYPES, name.toUpperCase()), name);
      assert.equal(enumName(EDGE_RULE_ACTION_TYPES, EDGE_RULE_ACTION_TYPES[name]), name);
      assert.equal(enumName(EDGE_RULE_ACTION_TYPES, String(EDGE_RULE_ACTION_TYPES[name])), name);
    }
    for (const missing of [35, 36, 38, -1, "constructor", "toString", ""]) assert.equal(enumName(EDGE_RULE_ACTION_TYPES, missing), undefined, String(missing));
    assert.equal(enumName(EDGE_RULE_TRIGGER_TYPES, 13), "OriginConnectionError");
    assert.equal(enumName(EDGE_RULE_MATCH_TYPES, "matchnone"), "MatchNone");
  });

  it("checks each action's parameters by position, and leaves types without rules alone", () => {
    assert.deepEqual(properties(withAction("Redirect", ["https://a.example", "308"])), []);
    assert.deepEqual(properties(withAction("Redirect", ["https://a.example"])), ["actions.0.parameters.1"]);
    assert.deepEqual(properties(withAction("Redirect")), ["actions.0.parameters.0", "actions.0.parameters.1"]);
    assert.deepEqual(properties(withAction("SetRequestHeader", ["X-Ok", ""])), []);
    assert.deepEqual(properties(withAction("SetRequestHeader", ["Bad Header", "v"])), ["actions.0.parameters.0"]);
    assert.deepEqual(properties(withAction("OverrideCacheTime", ["-1"])), []);
    assert.deepEqual(properties(withAction("OverrideCacheTime", ["-2"])), ["actions.0.parameters.0"]);
    assert.deepEqual(properties(withAction("SetStatusCode", ["600"])), ["actions.0.parameters.0"]);
    assert.deepEqual(properties(withAction("ForceSSL", ["anything"])), []);
  });

  it("checks triggers: a header, cookie or query trigger names what it reads; country, status, chance and method patterns", () => {
    assert.deepEqual(properties(withTrigger({ type: "CookieValue", patterns: ["1"] })), ["triggers.0.parameters.0"]);
    assert.deepEqual(properties(withTrigger({ type: "CookieValue", patterns: ["1"], parameters: ["session"] })), []);
    assert.deepEqual(properties(withTrigger({ type: "StatusCode", patterns: ["404", "5**", "4040"] })), ["triggers.0.patterns.2"]);
    assert.deepEqual(properties(withTrigger({ type: "RandomChance", patterns: ["101"] })), ["triggers.0.patterns.0"]);
    assert.deepEqual(properties(withTrigger({ type: "RequestMethod", patterns: ["GET", "PO ST"] })), ["triggers.0.patterns.1"]);
  });

  it("skips whatever is not known yet, at any depth, and judges the rest", () => {
    assert.deepEqual(properties({ actions: UNKNOWN, triggers: UNKNOWN }), []);
    assert.deepEqual(properties({ actions: [UNKNOWN, { type: "Redirect", parameters: [UNKNOWN, "200"] }], triggers: [] }), ["actions.1.parameters.1"]);
    assert.deepEqual(properties({ actions: [{ type: UNKNOWN, parameters: ["", ""] }], triggers: [{ type: UNKNOWN, patterns: ["x"] }] }), []);
    assert.deepEqual(properties(withTrigger({ type: "RequestHeader", patterns: [UNKNOWN], parameters: UNKNOWN })), []);
  });
});

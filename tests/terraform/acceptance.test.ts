import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, type Outcome, type TestResult, buildJudge, judge, listAcceptanceTests, terraformBinary } from "./judge";

/** One test the emulator is known to fail, and why (tests/terraform/expected-failures.json). */
interface ExpectedFailure {
  outcome: Exclude<Outcome, "pass">;
  /** "emulator": a gap of the emulator still to close; "unreachable": the real API's evidence says no emulator can pass it. */
  cause: "emulator" | "unreachable";
  /** A piece of the failure's first error: a test that fails for another reason is not the failure listed. */
  reasonIncludes: string;
  why: string;
}

const EXPECTED_FILE = join(REPO_ROOT, "tests", "terraform", "expected-failures.json");

function expectedFailures(): Record<string, ExpectedFailure> {
  return (JSON.parse(readFileSync(EXPECTED_FILE, "utf8")) as { tests: Record<string, ExpectedFailure> }).tests;
}

/** Each result against the list: what is wrong with it, or undefined when it is as expected. */
function verdict(result: TestResult, expected: ExpectedFailure | undefined): string | undefined {
  if (expected === undefined) return result.outcome === "pass" ? undefined : `${result.outcome}: ${result.reason} (log: ${result.logFile})`;
  if (result.outcome === "pass") return "passes now: remove it from tests/terraform/expected-failures.json";
  if (result.outcome !== expected.outcome || !result.reason.includes(expected.reasonIncludes)) {
    return `expected ${expected.outcome} with "${expected.reasonIncludes}", got ${result.outcome}: ${result.reason} (log: ${result.logFile})`;
  }
  return undefined;
}

/**
 * bunny.net's Terraform provider's acceptance tests (run against the real API by bunny.net) against a fresh emulator
 * each, through the machine's Terraform: every one passes, or is listed in expected-failures.json with why
 * (tests/terraform/judge.ts runs them; tools/terraform-judge/build.sh builds them from ../shared). Skipped, with the
 * reason, where the provider's source, Go or Terraform is missing. Cold, the build takes about 5 minutes on 2 cores
 * (Go's caches keep it after); the 23 tests about a minute.
 */
describe("bunny.net's Terraform provider's acceptance tests against the emulator", function () {
  this.timeout(30 * 60_000);
  let binary: string | undefined;

  before(function () {
    const terraform = terraformBinary();
    const built = terraform === undefined ? { reason: "terraform is not on PATH" } : buildJudge();
    if (built.binary === undefined) {
      console.log(`      skipped: ${built.reason}`);
      this.skip();
    }
    binary = built.binary;
  });

  it("lists only tests the provider has", function () {
    const tests = new Set(listAcceptanceTests(binary!));
    assert.deepEqual(Object.keys(expectedFailures()).filter((name) => !tests.has(name)), []);
  });

  it("every test passes or fails as listed, for the reason listed", async function () {
    const workDir = join(REPO_ROOT, "dist", "terraform-judge");
    const results = await judge({ binary: binary!, workDir });
    const expected = expectedFailures();
    const passed = results.filter((r) => r.outcome === "pass").length;
    console.log(`      ${passed} of ${results.length} pass; ${results.length - passed} listed as expected failures`);
    const wrong = results.flatMap((r) => {
      const problem = verdict(r, expected[r.name]);
      return problem === undefined ? [] : [`${r.name}: ${problem}`];
    });
    assert.deepEqual(wrong, []);
  });
});

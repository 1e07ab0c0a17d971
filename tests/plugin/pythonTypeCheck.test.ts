import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pythonVirtualenv } from "../support/languages";

/**
 * The Python programs users copy — examples/reference/python (the reference pages' examples) and examples/site-python —
 * pass Python's two common type checkers, mypy (from PyPI) and pyright (the npm devDependency), with the SDK of
 * sdk/python installed: every enum is a relaxed enum in the schema (provider/scripts/schemaEnums.mjs), so `region="DE"`,
 * `type="Standalone"` and a `configuration` dict type-check as the pages show them. A program with wrong types must
 * fail both, so a pass means the checkers read the SDK's types. Skipped, with the reason, without python3 or PyPI.
 */

const REPO_ROOT = resolve(__dirname, "..", "..", "..");
const PROGRAMS = [join(REPO_ROOT, "examples", "reference", "python", "__main__.py"), join(REPO_ROOT, "examples", "site-python", "__main__.py")];
/** The mypy the check installs beside the SDK (its version pinned so a new release cannot change the verdict). */
const MYPY = "mypy==2.4.1";

/** Each line a checker must refuse, by line number: a boolean given as a string, a number where a region's name goes. */
const WRONG_PROGRAM = [
  "import pulumi_bunnynet as bunnynet",
  'bunnynet.PullZoneHostname("www", pull_zone_id=1, hostname="www.example.com", force_ssl="yes")',
  'bunnynet.StorageZone("files", name="files", region=7)',
  "",
].join("\n");
const WRONG_LINES = [2, 3];

function run(command: string, args: string[]) {
  return spawnSync(command, args, { encoding: "utf8", cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 });
}

describe("the Python programs of the examples pass mypy and pyright against sdk/python", function () {
  this.timeout(900_000);
  let bin: string;
  let work: string;

  before(function () {
    const reason = spawnSync("python3", ["--version"]).error ? "python3 is not on PATH" : undefined;
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    try {
      bin = pythonVirtualenv([join(REPO_ROOT, "sdk", "python"), MYPY]);
    } catch (e) {
      console.log(`      skipped: no virtualenv with pulumi, the SDK and ${MYPY} (PyPI unreachable?): ${(e as Error).message}`);
      this.skip();
    }
    work = mkdtempSync(join(tmpdir(), "bunnynet-python-types-"));
    writeFileSync(join(work, "wrong.py"), WRONG_PROGRAM);
  });
  after(() => work && rmSync(work, { recursive: true, force: true }));

  const mypy = (file: string) => run(join(bin, "python"), ["-m", "mypy", "--cache-dir", join(work, "mypy-cache"), "--no-error-summary", file]);
  const pyright = (file: string) => run(process.execPath, [join(REPO_ROOT, "node_modules", "pyright", "index.js"), "--pythonpath", join(bin, "python"), file]);
  /** The line numbers a checker's report names for `file` (`wrong.py:3: error`, `wrong.py:3:8 - error`). */
  const errorLines = (report: string, file: string) =>
    [...new Set([...report.matchAll(new RegExp(`${file.replace(/\./g, "\\.")}:(\\d+)(?::\\d+)?:? -? ?error`, "g"))].map((m) => Number(m[1])))].sort((a, b) => a - b);

  for (const program of PROGRAMS) {
    const shown = program.slice(REPO_ROOT.length + 1);
    it(`mypy: ${shown}`, () => {
      const result = mypy(program);
      assert.equal(result.status, 0, `mypy ${shown}:\n${result.stdout}${result.stderr}`);
    });
    it(`pyright: ${shown}`, () => {
      const result = pyright(program);
      assert.equal(result.status, 0, `pyright ${shown}:\n${result.stdout}${result.stderr}`);
      assert.match(result.stdout, /\b0 errors\b/);
    });
  }

  it("both refuse a program with wrong types, naming each wrong line", () => {
    const file = join(work, "wrong.py");
    const byMypy = mypy(file);
    assert.notEqual(byMypy.status, 0);
    assert.deepEqual(errorLines(byMypy.stdout, "wrong.py"), WRONG_LINES, byMypy.stdout);
    const byPyright = pyright(file);
    assert.notEqual(byPyright.status, 0);
    assert.deepEqual(errorLines(byPyright.stdout, "wrong.py"), WRONG_LINES, byPyright.stdout);
  });
});

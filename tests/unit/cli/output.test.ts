import assert from "node:assert/strict";
import { type Column, rowWriter } from "bunnynet-pulumi/dist/cli/output.js";

/** The tool's row writers: what a person or a pipe sees of a listing, including one that fails or has no rows. */
describe("unit: cli row writers", () => {
  const columns: Column<{ url: string; bytes: number }>[] = [
    { header: "url", value: (r) => r.url, width: 30 },
    { header: "bytes", value: (r) => r.bytes },
  ];
  const collect = () => {
    const lines: string[] = [];
    return { lines, out: (t: string) => void lines.push(t) };
  };

  it("CSV: the header comes with the first row, or at the end of an empty listing; a run that fails first prints nothing", () => {
    const failed = collect();
    rowWriter("csv", columns, failed.out);
    assert.deepEqual(failed.lines, []);
    const empty = collect();
    rowWriter("csv", columns, empty.out).end();
    assert.deepEqual(empty.lines, ["url,bytes\n"]);
    const some = collect();
    const w = rowWriter("csv", columns, some.out);
    w.write({ url: "https://a.example/x", bytes: 1 });
    w.end();
    assert.deepEqual(some.lines, ["url,bytes\n", "https://a.example/x,1\n"]);
  });

  it("table: a column is at least its usual width, so rows after a quiet start are not cut to the header's", () => {
    const { lines, out } = collect();
    const w = rowWriter("table", columns, out, { sample: 1 });
    w.write({ url: "/", bytes: 1 });
    w.write({ url: "https://cdn.example.com/assets/app.js", bytes: 12345 });
    w.end();
    assert.equal(lines[0], `${"url".padEnd(30)}  bytes\n`);
    assert.equal(lines[3], "https://cdn.example.com/asset…  12345\n", "cut only past the usual width, with an ellipsis");
  });
});

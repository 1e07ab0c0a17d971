/**
 * Output formats for the command-line tool: an aligned table for a person at a terminal,
 * JSON lines or CSV for pipes. Rows stream: a table sizes its columns from the first rows.
 */
import { UsageError } from "./exitCodes";

export type OutputFormat = "table" | "jsonl" | "csv";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["table", "jsonl", "csv"];

export interface Column<R> {
  header: string;
  value: (row: R) => unknown;
  /** The width a table gives the column at least (its usual values), when few rows size it. */
  width?: number;
}

export function parseFormat(value: string | undefined, isTTY: boolean): OutputFormat {
  if (value === undefined) return isTTY ? "table" : "jsonl";
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`--format must be one of ${OUTPUT_FORMATS.join(", ")}, got ${JSON.stringify(value)}`);
}

function cell(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** RFC 4180 quoting: quote when the cell holds a comma, quote, CR or LF. */
export function csvCell(v: unknown): string {
  const s = cell(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export interface RowWriter<R> {
  write(row: R): void;
  end(): void;
}

/** Rows to `out` in the chosen format. For tables the first `sample` rows fix the column widths. */
export function rowWriter<R>(
  format: OutputFormat,
  columns: Column<R>[],
  out: (text: string) => void,
  options: { sample?: number; json?: (row: R) => unknown } = {},
): RowWriter<R> {
  const sample = options.sample ?? 200;
  if (format === "jsonl") {
    const json = options.json ?? ((row: R) => Object.fromEntries(columns.map((c) => [c.header, c.value(row) ?? null])));
    return {
      write: (row) => out(JSON.stringify(json(row)) + "\n"),
      end: () => undefined,
    };
  }
  if (format === "csv") {
    // The header comes with the first row (or at the end of an empty listing): a run that fails first prints nothing.
    let headed = false;
    const head = () => {
      if (!headed) out(columns.map((c) => csvCell(c.header)).join(",") + "\n");
      headed = true;
    };
    return {
      write: (row) => {
        head();
        out(columns.map((c) => csvCell(c.value(row))).join(",") + "\n");
      },
      end: head,
    };
  }
  let pending: string[][] | undefined = [];
  let widths: number[] = [];
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (c.length > widths[i] ? c.slice(0, Math.max(1, widths[i] - 1)) + "…" : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd() + "\n";
  const flush = () => {
    if (!pending) return;
    const headers = columns.map((c) => c.header);
    widths = headers.map((h, i) => Math.min(60, Math.max(h.length, columns[i].width ?? 0, ...pending!.map((r) => r[i].length))));
    out(line(headers));
    out(line(widths.map((w) => "-".repeat(w))));
    for (const r of pending) out(line(r));
    pending = undefined;
  };
  return {
    write(row) {
      const cells = columns.map((c) => cell(c.value(row)));
      if (pending) {
        pending.push(cells);
        if (pending.length >= sample) flush();
      } else out(line(cells));
    },
    end: flush,
  };
}

/** Shows only the last four characters of a secret. */
export function mask(secret: string): string {
  return secret.length <= 4 ? "****" : `****${secret.slice(-4)}`;
}

/**
 * The known name a mistyped one most likely meant (`apiKeyy` → `apiKey`), for "did you mean …?" in messages.
 *
 * Distance is the optimal string alignment distance (Levenshtein's insertions, deletions and substitutions, plus the
 * swap of two neighbouring letters, each counting one), compared without regard to case: `apikey` meant `apiKey`. A
 * name is suggested only when it is near enough to be a slip rather than another word: within two edits, or a third
 * of the known name's length for longer ones (`timeout` → `timeoutMs`, never `region` → `apiUrl`).
 */

/** The optimal string alignment distance between `a` and `b` (case as given). */
export function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance between the first i letters of a and the first j of b.
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2][j - 2] + 1);
      rows[i][j] = best;
    }
  }
  return rows[a.length][b.length];
}

/** The most edits a slip of `known` may hold. */
function slipAllowance(known: string): number {
  return Math.max(2, Math.floor(known.length / 3));
}

/** The name of `known` nearest to `given` when it is near enough to be a slip of it (the first of equals), else undefined. */
export function nearestName(given: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(given.toLowerCase(), name.toLowerCase());
    if (distance <= slipAllowance(name) && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

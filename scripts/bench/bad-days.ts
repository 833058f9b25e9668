/**
 * `npm run bench -- --only bad-days`: the README's programs (`BENCH_BAD_DAYS=all`: every program the
 * README, docs/ and examples/ show) through every bad day of `scripts/bad-days.ts` under the real
 * engine, at maxRetries 2: one row per run with its seconds and the peak RSS of its program process,
 * against the same program's `up` on a healthy service, and the table of the first line each run shows.
 */
import { provisionEngine, EngineRun } from "../engine-sandbox";
import {
  BAD_DAYS,
  BadDayMatrix,
  judge,
  README_PROGRAMS,
  RSS_BOUND_MB,
  SECONDS_BOUND,
  resultsTable,
  type CellResult,
} from "../bad-days";
import { x, type Row } from "./common";

const SECTION = "bad days (real engine, maxRetries 2)";

const figures = (r: CellResult) => `${r.run.seconds.toFixed(1)} s, ${r.run.programMb.toFixed(0)} MB`;

export async function runBadDays(log: (line: string) => void): Promise<Row[]> {
  const run = await EngineRun.start(undefined, "bench-bad-days", provisionEngine());
  const matrix = new BadDayMatrix(
    run,
    process.env.BENCH_BAD_DAYS === "all" ? undefined : README_PROGRAMS,
    log,
  );
  try {
    await matrix.prepare();
    for (const day of BAD_DAYS) await matrix.runDay(day);
  } finally {
    matrix.close();
    await run.close();
  }
  log(`the first line each run shows:\n\n${resultsTable(matrix.results)}\n`);
  const healthy = new Map(
    matrix.results.filter((r) => r.day === "healthy" && r.verb === "up").map((r) => [r.program, r]),
  );
  return matrix.results.map((r): Row => {
    const base = healthy.get(r.program)!;
    const row = {
      section: SECTION,
      figure: `${r.program}: ${r.day} \`${r.verb}\`, ${r.state} stack (s, program RSS)`,
      value: figures(r),
    };
    if (r.day === "healthy") return row;
    const problems = judge(r);
    return {
      ...row,
      baseline: `healthy up: ${figures(base)}`,
      ratio: x(r.run.seconds / base.run.seconds),
      goal: `<= ${SECONDS_BOUND} s, <= ${RSS_BOUND_MB} MB, its cause named`,
      met: problems.length === 0,
      ...(problems.length > 0 ? { figure: `${row.figure}: ${problems.join("; ")}` } : {}),
    };
  });
}

/**
 * A GitHub Actions workflow read from its file and run here the way a runner runs it: its jobs (a
 * matrix job as one job per leg, `fail-fast: false`) in order; each job's steps in order, `if:`
 * honoured (`success()`, `failure()`, `always()`), `run:` steps as bash in their
 * `working-directory` with the workflow's, the job's and the step's `env:` and `$GITHUB_ENV`;
 * `uses:` steps by the test's own stand-ins. Only what the project's workflows use is modelled;
 * anything else throws, so that a new construct in a workflow is a decision of its test.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { killProcessTree } from "./engine";

// js-yaml comes with @pulumi/pulumi (and eslint); it has no types of its own.
const yaml = require("js-yaml") as { load(text: string): unknown };

type Env = Record<string, string>;

/** A step, a job, a workflow as written in the file. */
export interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
  if?: string;
  shell?: string;
  "working-directory"?: string;
}

export interface Job {
  needs?: string | string[];
  if?: string;
  strategy?: { "fail-fast"?: boolean; matrix?: Record<string, unknown[]> };
  env?: Record<string, unknown>;
  steps: Step[];
}

export interface Workflow {
  env?: Record<string, unknown>;
  jobs: Record<string, Job>;
}

/** One job of a run: a job of the workflow, or one leg of a matrix job. */
export interface RunJob {
  /** As GitHub shows it: `deploy (staging)` for a leg, else the job's key. */
  id: string;
  matrix: Env;
  job: Job;
}

/** How a job or a step ended. */
export type Outcome = "success" | "failure" | "cancelled" | "skipped";

export function loadWorkflow(file: string): Workflow {
  return yaml.load(fs.readFileSync(file, "utf8")) as Workflow;
}

/** The workflow's jobs, one per matrix leg, in the file's order. */
export function expandJobs(workflow: Workflow): RunJob[] {
  return Object.entries(workflow.jobs).flatMap(([key, job]) => {
    if (job.if !== undefined || job.needs !== undefined)
      throw new Error(`job ${key}: a job-level if: or needs: is not modelled`);
    const matrix = job.strategy?.matrix ?? {};
    if ("include" in matrix || "exclude" in matrix || (job.strategy && job.strategy["fail-fast"] !== false))
      throw new Error(`job ${key}: include/exclude or fail-fast are not modelled`);
    let legs: Env[] = [{}];
    for (const [name, values] of Object.entries(matrix))
      legs = legs.flatMap((leg) => values.map((v) => ({ ...leg, [name]: String(v) })));
    const id = (leg: Env) =>
      Object.keys(leg).length > 0 ? `${key} (${Object.values(leg).join(", ")})` : key;
    return legs.map((leg) => ({ id: id(leg), matrix: leg, job }));
  });
}

/** Whether a step with condition `condition` runs, after earlier steps that failed or not, in a cancelled job or not. */
function stepRuns(condition: string | undefined, state: { failed: boolean; cancelled: boolean }): boolean {
  const runs: boolean | undefined = (<Record<string, boolean>>{
    "success()": !state.failed && !state.cancelled,
    "failure()": state.failed && !state.cancelled,
    "always()": true,
  })[(condition ?? "success()").replace(/^\$\{\{\s*|\s*\}\}$/g, "").trim()];
  if (runs === undefined) throw new Error(`if: ${condition} is not modelled`);
  return runs;
}

/** The values of the contexts an expression may read (`vars`, `secrets`, `github`, `matrix`, `env`). */
type Contexts = Record<string, Env | undefined>;

/**
 * The value of a `${{ }}` expression: context properties (`vars.X`, `matrix.stack`, …) and
 * quoted strings joined by `||` (the first non-empty one). A property GitHub does not know
 * (an unset variable or secret) is empty, as there.
 */
function evaluate(expression: string, contexts: Contexts): string {
  const terms = expression.split("||").map((term) => {
    const t = term.trim();
    const quoted = /^'((?:[^']|'')*)'$/.exec(t);
    if (quoted) return quoted[1].replace(/''/g, "'");
    const property = /^(\w+)\.([\w-]+)$/.exec(t);
    if (!property) throw new Error(`the expression ${expression} is not modelled`);
    const context = contexts[property[1]];
    if (!context) throw new Error(`the context ${property[1]} is not available in ${expression}`);
    return context[property[2]] ?? "";
  });
  return terms.find((v) => v !== "") ?? terms[terms.length - 1];
}

/** `values` with each `${{ … }}` replaced by its value. */
function interpolateAll(values: Record<string, unknown> | undefined, contexts: Contexts): Env {
  return Object.fromEntries(
    Object.entries(values ?? {}).map(([k, v]) => [
      k,
      String(v).replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => evaluate(expression, contexts)),
    ]),
  );
}

/** The workflow commands a step printed (`::error title=…::message`): level, title, message. */
export function annotations(output: string) {
  return [...output.matchAll(/^::(error|warning|notice)(?: ([^:\n]*))?::(.*)$/gm)].map((m) => ({
    level: m[1],
    title: /(?:^|,)title=([^,]*)/.exec(m[2] ?? "")?.[1],
    message: m[3],
  }));
}

/** What runs a job: the checkout, the runner's environment, the contexts, the actions' stand-ins. */
export interface JobContext {
  /** The checkout (`$GITHUB_WORKSPACE`). */
  root: string;
  /** The runner's environment (PATH, the engine's variables, …). */
  env: Env;
  workflowEnv?: Record<string, unknown>;
  vars: Env;
  secrets: Env;
  github: Env;
  /**
   * Stand-ins of the actions, by name without `@ref` (`actions/checkout`); each gets the step's
   * inputs resolved and returns the warnings the action would print; a throw fails the step. An
   * action without one throws.
   */
  actions: Record<string, (call: { inputs: Env }) => string[] | void>;
  /**
   * Called when a `run:` step started: `cancel()` cancels the job as GitHub does (the step's
   * process tree killed) and returns the pids killed.
   */
  onRunStep?: (step: Step, cancel: () => number[]) => void;
}

/** What a job did: its outcome, each step's outcome and output. */
export interface JobRun {
  outcome: Outcome;
  steps: Array<{ name: string; outcome: Outcome; output: string }>;
  /** Everything the steps printed, each step under a `## <name>` line. */
  output: string;
}

/** Reads `$GITHUB_ENV` (`NAME=value` lines). */
function readGithubEnv(file: string): Env {
  const env: Env = {};
  for (const line of fs.readFileSync(file, "utf8").split("\n").filter(Boolean)) {
    if (line.includes("<<")) throw new Error(`multi-line $GITHUB_ENV values are not modelled: ${line}`);
    const at = line.indexOf("=");
    env[line.slice(0, at)] = line.slice(at + 1);
  }
  return env;
}

/** Runs one job's steps in order under `context`; `temp` becomes `$RUNNER_TEMP`. */
export async function runJob(job: RunJob, context: JobContext, temp: string): Promise<JobRun> {
  fs.rmSync(temp, { recursive: true, force: true });
  fs.mkdirSync(temp, { recursive: true });
  const githubEnvFile = path.join(temp, "github-env");
  fs.writeFileSync(githubEnvFile, "");
  const { vars, secrets, github } = context;
  const base: Contexts = { vars, secrets, github, matrix: job.matrix };
  const workflowEnv = interpolateAll(context.workflowEnv, base);
  const jobEnv = { ...workflowEnv, ...interpolateAll(job.job.env, { ...base, env: workflowEnv }) };
  const state = { failed: false, cancelled: false };
  const result: JobRun = { outcome: "success", steps: [], output: "" };

  for (const step of job.job.steps) {
    // As GitHub shows it.
    const name = step.name ?? (step.uses ? `Run ${step.uses}` : `Run ${step.run?.split("\n")[0]}`);
    let output = "";
    let outcome: Outcome = "skipped";
    if (stepRuns(step.if, state)) {
      const env0 = { ...jobEnv, ...readGithubEnv(githubEnvFile) };
      const contexts: Contexts = { ...base, env: env0 };
      const env = { ...env0, ...interpolateAll(step.env, contexts) };
      if (step.uses) {
        const action = context.actions[step.uses.split("@")[0]];
        if (!action) throw new Error(`no stand-in for the action ${step.uses}: add one to the test`);
        try {
          const warnings = action({ inputs: interpolateAll(step.with, { ...contexts, env }) }) ?? [];
          output = warnings.map((w) => `::warning::${w}\n`).join("");
          outcome = "success";
        } catch (error) {
          output = `::error::${(error as Error).message}\n`;
          outcome = "failure";
        }
      } else {
        // As GitHub runs it: `bash -e` by default, `bash -eo pipefail` for `shell: bash`.
        if (step.shell !== undefined && step.shell !== "bash")
          throw new Error(`shell: ${step.shell} is not modelled`);
        if (step.run!.includes("${{")) throw new Error(`${name}: expressions in run: are not modelled`);
        let cancelled = false;
        const ran = await bash(step.run!, {
          cwd: path.join(context.root, step["working-directory"] ?? ""),
          env: {
            ...context.env,
            ...env,
            CI: "true",
            GITHUB_ENV: githubEnvFile,
            RUNNER_TEMP: temp,
            GITHUB_WORKSPACE: context.root,
          },
          options: step.shell === "bash" ? ["--noprofile", "--norc", "-eo", "pipefail"] : ["-e"],
          onStart: (cancel) =>
            context.onRunStep?.(step, () => {
              cancelled = true;
              return cancel();
            }),
        });
        output = ran.output;
        outcome = cancelled ? "cancelled" : ran.code === 0 ? "success" : "failure";
      }
      if (outcome === "failure") state.failed = true;
      if (outcome === "cancelled") state.cancelled = true;
    }
    result.steps.push({ name, outcome, output });
    result.output += `## ${name}: ${outcome}\n${output}`;
  }
  result.outcome = state.cancelled ? "cancelled" : state.failed ? "failure" : "success";
  return result;
}

/**
 * Runs `script` with `bash <options> -c` in `cwd` with exactly `env`; `onStart` gets a function
 * that kills its process tree and returns the pids killed.
 */
export function bash(
  script: string,
  opts: { cwd: string; env: Env; options?: string[]; onStart?: (cancel: () => number[]) => void },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    let output = "";
    const child = spawn("bash", [...(opts.options ?? []), "-c", script], {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
    opts.onStart?.(() => killProcessTree(child.pid!).map((p) => p.pid));
  });
}

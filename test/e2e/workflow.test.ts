/**
 * The CI guide's workflow (examples/ci/github-actions.yml, docs/ci.md) as a runner runs it: its
 * jobs read from the file, and each job's `run:` steps in order as bash under the real engine
 * against the emulator, for two stacks bootstrapped as the guide says.
 */
import * as fs from "fs";
import * as path from "path";
import type { RunningEmulator } from "../../src/emulator";
import { NodeServiceClient } from "../../src/api";
import { findSecrets } from "../helpers/audit";
import { diagnosed, errorsWith } from "../helpers/diagnostics";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine, ENGINE_VERSION, filesUnder, EngineRun, ROOT } from "../helpers/engine";
import { programProject } from "../helpers/program-project";
import { docBlock, readmeBlock, readmeFile } from "../helpers/readme";
import {
  annotations,
  bash,
  expandJobs,
  loadWorkflow,
  runJob,
  type JobContext,
  type JobRun,
  type Outcome,
  type RunJob,
  type Step,
} from "../helpers/workflow";

// The engine steps of a whole run of the pipeline, eight times over.
jest.setTimeout(600_000);
const WORKFLOW = path.join(ROOT, "examples", "ci", "github-actions.yml");
const NETWORK = "NW-100-000-1";
const TYPO = "NW-999-999-9";

/** The step that runs `pulumi up` in the project's folder (`infra`, `app`). */
const isUp = (project: string) => (step: Step) =>
  step["working-directory"] === project && /\bpulumi up\b/.test(step.run ?? "");

const STAGING = "deploy (staging)";
const PRODUCTION = "deploy (production)";
const production = (job: RunJob) => job.id === PRODUCTION;

/**
 * A checkout holding the README's two projects as docs/ci.md has them (`infra/`, `app/`, in
 * `build/e2e-programs/<name>`), and a runner of the workflow's jobs on it: the actions' stand-ins,
 * the repository's variables and secrets (the emulator's URL and key), what each job printed.
 */
function repository(run: EngineRun, emulator: () => RunningEmulator, name: string) {
  const root = path.join(ROOT, "build", "e2e-programs", name);
  fs.rmSync(root, { recursive: true, force: true });
  const infra = programProject(`${name}-infra`, readmeFile("index.ts"), {
    project: "nodes-infra",
    dir: path.join(root, "infra"),
  });
  const app = programProject(`${name}-app`, readmeBlock('need("appConfig")'), {
    project: "nodes-app",
    dir: path.join(root, "app"),
  });
  // `npm ci`: the projects use this checkout's build, already there.
  const bin = path.join(run.sandbox.dir, `${name}-bin`);
  fs.mkdirSync(bin);
  fs.writeFileSync(
    path.join(bin, "npm"),
    '#!/bin/sh\n[ "$1" = ci ] && exit 0\necho "npm $*: only npm ci is stood in for" >&2\nexit 1\n',
    { mode: 0o755 },
  );

  const workflow = loadWorkflow(WORKFLOW);
  const jobs = expandJobs(workflow);
  const logs: Record<string, string> = {};
  let runId = 0;
  const context = (): JobContext => ({
    root,
    env: {
      ...(process.env as Record<string, string>),
      ...run.sandbox.envVars,
      PATH: `${bin}${path.delimiter}${run.sandbox.envVars.PATH}`,
    },
    workflowEnv: workflow.env,
    vars: {
      PULUMI_BACKEND_URL: run.sandbox.envVars.PULUMI_BACKEND_URL,
      BLOCKCHAIN_API_URL: emulator().url,
      PULUMI_STATE_ROLE_ARN: "arn:aws:iam::123456789012:role/pulumi-state",
      AWS_REGION: "eu-west-1",
    },
    secrets: {
      PULUMI_CONFIG_PASSPHRASE: run.sandbox.envVars.PULUMI_CONFIG_PASSPHRASE,
      BLOCKCHAIN_API_KEY: emulator().apiKey,
    },
    github: { run_id: String(runId), run_attempt: "1" },
    actions: {
      "actions/checkout": () => undefined, // the checkout is `root`
      "actions/setup-node": () => undefined, // Node.js runs this test
      // The engine on PATH is the version the workflow installs.
      "pulumi/actions": ({ inputs }) => {
        if (`v${inputs["pulumi-version"]}` !== ENGINE_VERSION)
          throw new Error(
            `the workflow installs ${inputs["pulumi-version"]}, the tests run ${ENGINE_VERSION}`,
          );
      },
      "aws-actions/configure-aws-credentials": () => undefined, // a file:// backend here
      "actions/cache/restore": () => undefined, // a cache miss: a runner that starts empty
      // What actions/cache/save prints for a path that does not exist.
      "actions/cache/save": ({ inputs }) =>
        fs.existsSync(inputs.path)
          ? []
          : [
              "Path Validation Error: Path(s) specified in the action for caching do(es) not exist, hence no cache is being saved.",
            ],
    },
  });
  /** One run of the workflow (the jobs `only` keeps): each job's outcome and what it did. */
  const deploy = async (
    label: string,
    only?: (job: RunJob) => boolean,
    onRunStep?: JobContext["onRunStep"],
  ) => {
    runId++;
    const runs: Record<string, JobRun> = {};
    for (const job of jobs.filter(only ?? (() => true))) {
      const temp = path.join(run.sandbox.dir, `${name}-runner-temp`, job.id.replace(/\W+/g, "-"));
      runs[job.id] = await runJob(job, { ...context(), onRunStep }, temp);
      logs[`${label}: ${job.id}`] = runs[job.id].output;
    }
    const outcomes = Object.fromEntries(Object.entries(runs).map(([id, r]) => [id, r.outcome]));
    /** The outcome and output of job `id`'s update in `project`. */
    const update = (id: string, project: string) =>
      runs[id].steps[jobs.find((j) => j.id === id)!.job.steps.findIndex(isUp(project))];
    return { outcomes, runs, update };
  };
  /** The jobs' outcomes are `expected`; else the failure shows what the jobs printed. */
  const expectOutcomes = (done: Awaited<ReturnType<typeof deploy>>, expected: Record<string, Outcome>) => {
    if (JSON.stringify(done.outcomes) === JSON.stringify(expected)) return;
    const printed = Object.entries(done.runs).map(([id, r]) => `=== ${id}: ${r.outcome}\n${r.output}`);
    throw new Error(
      `outcomes ${JSON.stringify(done.outcomes)}, expected ${JSON.stringify(expected)}:\n${printed.join("\n")}`,
    );
  };
  return { root, infra, app, jobs, logs, deploy, expectOutcomes };
}

describe("the CI guide's workflow: its jobs, read from the file", () => {
  const workflow = loadWorkflow(WORKFLOW);
  const jobs = expandJobs(workflow);

  test("the node service's key is in the infra update's environment only", () => {
    const withKey = (env?: Record<string, unknown>) => Object.keys(env ?? {}).includes("BLOCKCHAIN_API_KEY");
    expect(withKey(workflow.env)).toBe(false);
    for (const { job } of jobs) {
      expect(withKey(job.env)).toBe(false);
      expect(job.steps.filter((s) => withKey(s.env))).toEqual([job.steps.find(isUp("infra"))]);
    }
  });
});

describeWithEngine()("the CI guide's workflow, its run: steps under the real engine, two stacks", () => {
  const emulator = withEmulator();
  let run: EngineRun;

  beforeAll(async () => {
    run = await EngineRun.start();
  });

  afterAll(() => run?.sandbox.cleanup());

  test("bootstrap, a failed stack beside a deploying one, a leftover lock explained and undone, the gate on a node that fails its check, a rotated key re-exported unprinted", async () => {
    const started = Date.now();
    const { root, infra, app, logs, deploy, expectOutcomes } = repository(run, emulator, "workflow");

    // Before the bootstrap: the workflow creates no stack; each job fails at once, naming it.
    const unready = await deploy("before the bootstrap");
    expectOutcomes(unready, { [STAGING]: "failure", [PRODUCTION]: "failure" });
    expect(unready.update(STAGING, "infra").output).toContain("no stack named 'staging' found");

    // The bootstrap (docs/ci.md): each stack of both projects with its passphrase salt, committed.
    for (const stack of ["staging", "production"]) {
      for (const [project, dir] of Object.entries({ "nodes-infra": infra, "nodes-app": app })) {
        const name = `organization/${project}/${stack}`;
        await run.ok(dir, ["stack", "init", name, "--secrets-provider", "passphrase"]);
        const config = fs.readFileSync(path.join(dir, `Pulumi.${stack}.yaml`), "utf8");
        expect(config).toMatch(/^encryptionsalt: v1:/m);
      }
    }
    // staging's networkId has a typo.
    await run.ok(infra, ["config", "set", "networkId", TYPO, "--stack", "staging"]);
    await run.ok(infra, ["config", "set", "networkId", NETWORK, "--stack", "production"]);

    // Run 1: staging's infra fails and skips staging's app; production deploys both.
    const first = await deploy("run 1");
    expectOutcomes(first, { [STAGING]: "failure", [PRODUCTION]: "success" });
    const typo = first.update(STAGING, "infra");
    expect(typo.outcome).toBe("failure");
    expect(errorsWith(typo.output, TYPO)).toHaveLength(1);
    expect(diagnosed(typo.output)).toContain("404");
    expect(first.update(STAGING, "app").outcome).toBe("skipped");
    const firstApp = JSON.parse(await run.ok(app, ["stack", "output", "--json", "--stack", "production"]));
    expect(firstApp).toMatchObject({ networkName: "mainnet", appEnvironment: "[secret]" });
    // No warning on a normal run (the faucet journal's folder exists before it is saved), and
    // no lock annotation on a failure that is not a lock.
    for (const done of Object.values(first.runs)) expect(annotations(done.output)).toEqual([]);

    // Run 2, cancelled (as the Cancel button or timeout-minutes do) while production's infra
    // update holds its lock: the lock stays.
    const locks = path.join(run.sandbox.backendDir, ".pulumi/locks/organization/nodes-infra/production");
    const lockFiles = () =>
      fs.existsSync(locks) ? fs.readdirSync(locks).filter((f) => f.endsWith(".json")) : [];
    emulator().setRouteDelays({ networkUpdateMs: 30_000 }); // the refresh's read of the network, held
    let killed: number[] = [];
    let poll: NodeJS.Timeout | undefined;
    const cancelled = await deploy("run 2, cancelled", production, (step, cancel) => {
      if (!isUp("infra")(step)) return;
      poll = setInterval(() => {
        if (lockFiles().length === 0) return;
        clearInterval(poll);
        killed = cancel();
      }, 50);
    }).finally(() => clearInterval(poll));
    emulator().setRouteDelays({});
    expectOutcomes(cancelled, { [PRODUCTION]: "cancelled" });
    expect(cancelled.update(PRODUCTION, "app").outcome).toBe("skipped");
    expect(lockFiles()).toHaveLength(1);
    // The lock file names the machine, the process (one the cancel killed) and the time.
    const lock = JSON.parse(fs.readFileSync(path.join(locks, lockFiles()[0]), "utf8"));
    expect(lock).toEqual({
      pid: expect.any(Number),
      username: expect.any(String),
      hostname: expect.any(String),
      timestamp: expect.any(String),
    });
    expect(killed).toContain(lock.pid);

    // Run 3, staging's typo fixed: staging deploys; production's infra fails on the lock, its
    // app is skipped, and the job's last step explains how to unlock it.
    await run.ok(infra, ["config", "set", "networkId", NETWORK, "--stack", "staging"]);
    const third = await deploy("run 3");
    expectOutcomes(third, { [STAGING]: "success", [PRODUCTION]: "failure" });
    expect(third.update(PRODUCTION, "app").outcome).toBe("skipped");
    const locked = third.update(PRODUCTION, "infra").output;
    expect(locked).toContain("currently locked by 1 lock(s)");
    expect(locked).toContain(`(pid ${lock.pid})`);
    expect(annotations(third.runs[STAGING].output)).toEqual([]);
    const [explained] = annotations(third.runs[PRODUCTION].output);
    expect(explained).toMatchObject({ level: "error", title: "Stack production of infra/ is locked" });
    expect(explained.message).toContain("Only when no update of it is running");
    // The command it gives, run where it says, unlocks the stack; re-running the job deploys.
    const command = /unlock it in (\w+)\/: (pulumi cancel --stack \S+ --yes)/.exec(explained.message)!;
    expect(command[1]).toBe("infra");
    await run.ok(path.join(root, command[1]), command[2].split(" ").slice(1), "pulumi cancel");
    expect(lockFiles()).toEqual([]);
    const rerun = await deploy("run 3, re-run", production);
    expectOutcomes(rerun, { [PRODUCTION]: "success" });

    // The gate. Green: what verify proved of each running node (by name, as the infra program
    // lists them), readable in the infra stack; the app's environment holds all of them.
    const client = new NodeServiceClient({ apiUrl: emulator().url, apiKey: emulator().apiKey });
    const listed = await client.listAllNodes(
      { network: NETWORK, status: "running", orderBy: "name" },
      { limit: 100 },
    );
    expect(listed.length).toBeGreaterThan(2);
    const infraOutputs = JSON.parse(
      await run.ok(infra, ["stack", "output", "--json", "--stack", "production"]),
    );
    expect(infraOutputs.proven).toEqual(
      listed.map((n) => ({ id: n.id, chainId: "1", headAgeSeconds: expect.any(Number) })),
    );
    expect(infraOutputs.appConfig).toBe("[secret]");
    // The app's environment in plaintext (these reads are left out of the audit below), and how
    // many updates the app stack has had.
    const appOutputs = () =>
      run.ok(
        app,
        ["stack", "output", "--json", "--show-secrets", "--stack", "production"],
        "revealed app outputs",
      );
    const appUpdates = async () =>
      (JSON.parse(await run.ok(app, ["stack", "history", "--json", "--stack", "production"])) as unknown[])
        .length;
    const deployed = await appOutputs();
    const environment = JSON.parse(deployed).appEnvironment as { RPC_URL: string; NODES_JSON: string };
    expect(environment.RPC_URL).toBe(listed[0].details.httpsEndpoint);
    expect((JSON.parse(environment.NODES_JSON) as { rpc: string }[]).map((n) => n.rpc)).toEqual(
      listed.map((n) => n.details.httpsEndpoint),
    );
    const updates = await appUpdates();

    // A node that is not the first serves another chain (5, where the network's is 1), then is back
    // on its chain with its head stalled 15 minutes ago: each time the infra step fails with one
    // line naming it (the nodes that passed are not named), the app step is skipped, the app's
    // stack untouched.
    const bad = listed[2];
    const gateLines: string[] = [];
    for (const [label, behaviour, shape] of [
      ["a node on another chain", { chainId: "5" }, /\b5\b.*\bethereum-mainnet\b.*\b1\b/],
      ["a stalled node", { chainId: null, stalledSeconds: 900 }, /\b9\d\d s\b.*\b120 s\b/],
    ] as const) {
      emulator().admin.setNodeEndpoint(bad.id, behaviour);
      const gated = await deploy(label, production);
      expectOutcomes(gated, { [PRODUCTION]: "failure" });
      const [stopped, skipped] = [gated.update(PRODUCTION, "infra"), gated.update(PRODUCTION, "app")];
      expect([stopped.outcome, skipped.outcome]).toEqual(["failure", "skipped"]);
      const errors = errorsWith(stopped.output);
      expect(errors).toEqual([
        expect.stringMatching(new RegExp(`^error: getNodesOutput: 1 of ${listed.length}\\b.*${bad.id}\\b`)),
      ]);
      expect(errors[0]).toMatch(shape);
      for (const n of listed.filter((n) => n.id !== bad.id))
        expect(diagnosed(stopped.output)).not.toContain(n.id);
      expect(await appOutputs()).toBe(deployed);
      expect(await appUpdates()).toBe(updates);
      console.log(
        `the gate, ${label}: job "${PRODUCTION}" stopped at its step "${stopped.name}" (${stopped.outcome}); ` +
          `its step "${skipped.name}" was ${skipped.outcome}. The line it printed:\n${errors[0]}`,
      );
      gateLines.push(errors[0]);
    }
    // docs/ci.md shows these very lines (a head's number and age vary).
    const guide = fs.readFileSync(path.join(ROOT, "docs", "ci.md"), "utf8");
    const shape = (line: string) => line.replace(/head block \d+ is \d+ s old/g, "head block N is A s old");
    for (const line of gateLines) expect(shape(guide)).toContain(shape(line));
    // Live again, and the first node's credentials rotated by the service meanwhile: one run
    // proves every node again and hands the app the new endpoint.
    emulator().admin.setNodeEndpoint(bad.id, { stalledSeconds: null });
    const rotated = emulator().admin.rotateCredentials(listed[0].id)!.details.https_endpoint!;
    expect(rotated).not.toBe(listed[0].details.httpsEndpoint);
    expectOutcomes(await deploy("live again, a credential rotated", production), {
      [PRODUCTION]: "success",
    });
    const redeployed = JSON.parse(await appOutputs()).appEnvironment as typeof environment;
    expect(redeployed.RPC_URL).toBe(rotated);
    expect((JSON.parse(redeployed.NODES_JSON) as { rpc: string }[]).map((n) => n.rpc)).toEqual([
      rotated,
      ...listed.slice(1).map((n) => n.details.httpsEndpoint),
    ]);

    // The guide's key rotation rehearsal (its bash block, as written), on production, the
    // stack selected last: the new key goes into the variable, unprinted, and the pipeline passes.
    const oldKey = emulator().apiKey;
    const rotation = await bash(docBlock("docs/ci.md", "bash", "/keys/RG-100-001/rotate"), {
      cwd: root,
      env: {
        ...(process.env as Record<string, string>),
        ...run.sandbox.envVars,
        BLOCKCHAIN_API_URL: emulator().url,
        BLOCKCHAIN_API_KEY: oldKey,
        ADMIN: `Authorization: Bearer ${emulator().adminKey}`,
      },
      options: ["-e"],
    });
    logs["key rotation rehearsal"] = rotation.output;
    expect(rotation.code).toBe(0);
    expect(emulator().apiKey).not.toBe(oldKey);
    expect(rotation.output).toMatch(/Updating \(production\)[\s\S]*Updating \(production\)/);
    // The job's old secret is refused at preview, naming where it came from (the job's variable).
    const oldEnv = { BLOCKCHAIN_API_URL: emulator().url, BLOCKCHAIN_API_KEY: oldKey, CI: "true" };
    const preview = ["preview", "--non-interactive", "--stack", "production"];
    const refused = await run.cli(infra, preview, "old key", oldEnv);
    expect(refused.code).not.toBe(0);
    expect(diagnosed(refused.output)).toMatch(/\b401\b[\s\S]*\bBLOCKCHAIN_API_KEY\b/);

    console.log(`the workflow under the engine, 8 runs and a rehearsal: ${Date.now() - started} ms`);
    const checkout = [infra, app].flatMap((dir) =>
      fs
        .readdirSync(dir)
        .filter((f) => f.startsWith("Pulumi."))
        .map((f) => path.join(dir, f)),
    );
    const printed = Object.fromEntries(
      Object.entries({ ...logs, ...run.transcript }).filter(([label]) => !label.includes("revealed")),
    );
    expect(
      findSecrets([...emulator().secrets(), oldKey], {
        files: [...filesUnder(run.sandbox.backendDir), ...checkout],
        texts: printed,
      }),
    ).toEqual([]);
  });
});

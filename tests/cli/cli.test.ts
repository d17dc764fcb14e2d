// The admin CLI contract, run as a real process against the test database.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { hashSecret } from "@/lib/keys/secrets";
import { PARTNER_SCOPES } from "@/lib/oauth/scopes";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const CREDENTIALS_FILE = path.join(ROOT, ".data", `cli-test-credentials-${process.pid}.json`);

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, "node_modules", ".bin", "tsx"), [path.join(ROOT, "bin", "cli.ts"), ...args], {
      cwd: ROOT,
      env: { ...process.env, DEMO_CREDENTIALS_FILE: CREDENTIALS_FILE, LOG_LEVEL: "silent" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe("project create", () => {
  it("prints the credential contract as JSON and stores only hashes", async () => {
    const { code, stdout } = await cli("project", "create", "--name", "Acme Lending", "--tier", "launch", "--json");
    expect(code).toBe(0);
    const created = JSON.parse(stdout);
    expect(Object.keys(created).sort()).toEqual(["client_id", "live", "project_id", "sandbox", "scopes"]);
    expect(created.project_id).toMatch(/^proj_/);
    expect(created.client_id).toMatch(/^svc_client_[0-9a-z]{26}$/);
    expect(created.sandbox.secret_key).toMatch(/^sk_sandbox_[0-9A-Za-z]{40}$/);
    expect(created.sandbox.publishable_key).toMatch(/^pk_sandbox_[0-9A-Za-z]{40}$/);
    expect(created.live.secret_key).toMatch(/^sk_live_[0-9A-Za-z]{40}$/);
    expect(created.live.publishable_key).toMatch(/^pk_live_[0-9A-Za-z]{40}$/);
    expect(created.scopes).toEqual([...PARTNER_SCOPES]);

    const project = await db().project.findUniqueOrThrow({ where: { id: created.project_id }, include: { apiKeys: true } });
    expect(project).toMatchObject({ name: "Acme Lending", tier: "launch", status: "active", clientId: created.client_id });
    expect(project.apiKeys).toHaveLength(4);
    const stored = JSON.stringify(project.apiKeys);
    expect(stored).not.toContain(created.sandbox.secret_key);
    expect(project.apiKeys.map((key) => key.secretHash).sort()).toEqual(
      [created.sandbox.secret_key, created.sandbox.publishable_key, created.live.secret_key, created.live.publishable_key].map(hashSecret).sort(),
    );
    const sandboxSecret = project.apiKeys.find((key) => key.secretHash === hashSecret(created.sandbox.secret_key));
    expect(sandboxSecret).toMatchObject({ type: "secret", environment: "sandbox", prefix: "sk_sandbox_", last4: created.sandbox.secret_key.slice(-4) });
  });

  it("defaults the tier to build", async () => {
    const { code, stdout } = await cli("project", "create", "--name", "Tierless", "--json");
    expect(code).toBe(0);
    const project = await db().project.findUniqueOrThrow({ where: { id: JSON.parse(stdout).project_id } });
    expect(project.tier).toBe("build");
  });

  it("prints readable text without --json", async () => {
    const { code, stdout } = await cli("project", "create", "--name", "Text Mode");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Created project proj_\w+ \(build\)/);
    expect(stdout).toContain("Secrets are shown once");
  });
});

describe("seed", () => {
  it("creates the demo project once and reports the same credentials after", async () => {
    rmSync(CREDENTIALS_FILE, { force: true });
    const first = await cli("seed", "--json");
    const second = await cli("seed", "--json");
    rmSync(CREDENTIALS_FILE, { force: true });
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    const [one, two] = [JSON.parse(first.stdout), JSON.parse(second.stdout)];
    expect(two.created).toEqual({ project: false, sandbox_keys: false });
    expect(two.demo).toEqual(one.demo);
    expect(one.demo.sandbox.secret_key).toMatch(/^sk_sandbox_/);
    expect(await db().project.count({ where: { isDemo: true } })).toBe(1);
  });
});

describe("usage errors exit 2 with usage", () => {
  it.each([
    [["frobnicate"], "unknown command: frobnicate"],
    [["project", "delete"], "unknown command: project delete"],
    [["project", "create", "--name", "X", "--colour", "red"], "Unknown option '--colour'"],
    [["project", "create"], "--name: is required"],
    [["project", "create", "--name", "X", "--tier", "gold"], "--tier:"],
    [["project", "create", "--name", "X", "extra"], "expected 0 argument(s)"],
    [[], "Usage:"],
  ])("%j", async (args, message) => {
    const { code, stdout, stderr } = await cli(...args);
    expect(code).toBe(2);
    expect(stdout + stderr).toContain(message);
    expect(stdout + stderr).toContain("Usage: npm run --silent cli --");
  });

  it("prints help with exit 0 when asked", async () => {
    const { code, stdout } = await cli("help");
    expect(code).toBe(0);
    expect(stdout).toContain("project create --name NAME");
  });
});

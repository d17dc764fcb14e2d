// The admin CLI as a process of its own, as an operator runs it (every other CLI test runs it in process): its
// exit codes, its usage on stderr, and `listen` riding out a restart of the API until ^C stops it.
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startAppServer } from "../helpers/app-server";
import { runCliProcess, spawnCli } from "../helpers/cli";
import { eventually } from "../helpers/eventually";
import { createTestProject } from "../helpers/partner";

const SECRETS_FILE = path.join(mkdtempSync(path.join(tmpdir(), "cli-process-")), "listen-secrets.json");
afterAll(() => rmSync(path.dirname(SECRETS_FILE), { recursive: true, force: true }));

describe("the cli process", () => {
  it("exits 0 when the command succeeds and 1 when it fails, the error on stderr", async () => {
    const created = await runCliProcess({}, "project", "create", "--name", "Process Made", "--json");
    expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: "" });
    const { project_id } = JSON.parse(created.stdout);
    expect((await db().project.findUniqueOrThrow({ where: { id: project_id } })).name).toBe("Process Made");

    expect(await runCliProcess({}, "project", "suspend", "proj_nope")).toEqual({ code: 1, stdout: "", stderr: "error: No such project: proj_nope.\n" });
  });

  it("prints a usage error and the command list on stderr, nothing on stdout, and exits 2", async () => {
    const { code, stdout, stderr } = await runCliProcess({}, "frobnicate");
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toMatch(/^error: unknown command: frobnicate\n\nUsage: npm run --silent cli -- <command> \[options\]\n\nCommands:\n/);
    expect(stderr.endsWith("One command's options: help <command>, or <command> --help.\n")).toBe(true);
  });

  it("keeps listen forwarding across a restart of the API, and stops it on ^C with exit 0", async () => {
    const project = await createTestProject();
    let server = await startAppServer();
    const apiUrl = server.url;
    const child = spawnCli(
      { LENDING_API_URL: undefined, LISTEN_SECRETS_FILE: SECRETS_FILE, LENDING_CLIENT_ID: project.client_id, LENDING_API_KEY: project.sandbox.secret_key },
      ...["listen", "--forward-to", "http://127.0.0.1:9/webhooks", "--api-url", apiUrl],
    );
    const exited = once(child, "exit");
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      await eventually(async () => stdout, (text) => text.includes("Ready."), { timeoutMs: 15_000 });
      await server.close();
      await eventually(async () => stdout, (text) => text.includes("Lost the connection"));
      server = await startAppServer({}, { port: Number(new URL(apiUrl).port) });
      // The first attempt waits 1 s (±25%); later ones, when the restart was slower, longer.
      await eventually(async () => stdout, (text) => text.includes("Reconnected."), { timeoutMs: 15_000 });
      child.kill("SIGINT");
      const [code] = (await exited) as [number];
      expect(code).toBe(0);
    } finally {
      child.kill();
      await server.close();
    }
    const lines = stdout.trimEnd().split("\n");
    const wait = "(\\d+ms|\\d+(\\.\\d)?s)";
    expect(lines[0]).toMatch(/^Ready\. Forwarding sandbox events to http:\/\/127\.0\.0\.1:9\/webhooks\. Your webhook signing secret is whsec_\w{40} \(\^C to quit\)$/);
    expect(lines[1]).toMatch(new RegExp(`^Lost the connection to ${apiUrl} \\(connection closed\\); reconnecting in ${wait}…$`));
    for (const line of lines.slice(2, -2)) expect(line).toMatch(new RegExp(`^Still cannot reach ${apiUrl} \\(connection refused\\); trying again in ${wait}…$`));
    expect(lines.slice(-2)).toEqual(["Reconnected.", "Stopped after forwarding 0 event(s)."]);
  });
});

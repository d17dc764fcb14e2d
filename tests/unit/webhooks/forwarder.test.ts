// The forwarder's reconnect schedule, how it states a wait, and the signing secret it keeps per project.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ForwarderError, formatDuration, reconnectDelayMs } from "@/lib/webhooks/forwarder";
import { readOrCreateForwarderSecret, rotateForwarderSecret } from "@/lib/webhooks/forwarder-secret";

describe("reconnect delay", () => {
  const attempts = [1, 2, 3, 4, 5, 6, 7, 20];

  it("starts at 1 s and doubles up to 30 s", () => {
    expect(attempts.map((attempt) => reconnectDelayMs(attempt, () => 0.5))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it("spreads each wait by a quarter either way, never beyond 30 s", () => {
    expect(attempts.map((attempt) => reconnectDelayMs(attempt, () => 0))).toEqual([750, 1_500, 3_000, 6_000, 12_000, 22_500, 22_500, 22_500]);
    expect(attempts.map((attempt) => reconnectDelayMs(attempt, () => 0.999_999))).toEqual([1_250, 2_500, 5_000, 10_000, 20_000, 30_000, 30_000, 30_000]);
  });

  it("is stated in seconds, or milliseconds below one", () => {
    expect([20, 999, 1_000, 1_250, 4_000, 30_000].map(formatDuration)).toEqual(["20ms", "999ms", "1s", "1.3s", "4s", "30s"]);
  });
});

describe("forwarding secret", () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  /** A secrets file in a folder that does not exist yet. */
  function secretsFile(): string {
    const folder = mkdtempSync(path.join(tmpdir(), "listen-secrets-"));
    folders.push(folder);
    return path.join(folder, ".data", "listen-secrets.json");
  }

  it("is created once per project, kept in a file only its owner can read, and the same on every later read", () => {
    const file = secretsFile();
    const first = readOrCreateForwarderSecret(file, "svc_client_a");
    expect(first).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    expect(readOrCreateForwarderSecret(file, "svc_client_a")).toBe(first);
    const other = readOrCreateForwarderSecret(file, "svc_client_b");
    expect(other).not.toBe(first);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ svc_client_a: first, svc_client_b: other });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("is replaced by a rotation for that project only", () => {
    const file = secretsFile();
    const [a, b] = [readOrCreateForwarderSecret(file, "svc_client_a"), readOrCreateForwarderSecret(file, "svc_client_b")];
    const rotated = rotateForwarderSecret(file, "svc_client_a");
    expect(rotated).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    expect(rotated).not.toBe(a);
    expect(readOrCreateForwarderSecret(file, "svc_client_a")).toBe(rotated);
    expect(readOrCreateForwarderSecret(file, "svc_client_b")).toBe(b);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("refuses a file that is not one of secrets, naming it, and leaves it as it was", () => {
    const file = secretsFile();
    readOrCreateForwarderSecret(file, "svc_client_a");
    writeFileSync(file, "not json");
    expect(() => readOrCreateForwarderSecret(file, "svc_client_a")).toThrow(ForwarderError);
    expect(() => rotateForwarderSecret(file, "svc_client_a")).toThrow(`${file} is not a file of forwarding secrets; move it away and run again for new ones`);
    expect(readFileSync(file, "utf8")).toBe("not json");
  });
});

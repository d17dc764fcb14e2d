// The `cms` admin commands, run in this process against the test database: put from Markdown and HTML files,
// publish and unpublish, list, and their exit codes (2 for usage errors, 1 for an unknown page).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getPublishedPage, savePage } from "@/lib/cms/service";
import { db } from "@/lib/db";
import { runCli } from "../helpers/cli";

const FILES = mkdtempSync(path.join(tmpdir(), "cms-cli-"));
afterAll(() => rmSync(FILES, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli({}, ...args);

function uniqueKey(label: string): string {
  return `cli-${label}-${randomBytes(5).toString("hex")}`;
}

function writeTempFile(name: string, content: string): string {
  const file = path.join(FILES, name);
  writeFileSync(file, content);
  return file;
}

describe("cms put", () => {
  it("saves a Markdown file unpublished, titled by its first heading, and sanitised", async () => {
    const key = uniqueKey("md");
    const file = writeTempFile(`${key}.md`, "# Repayments\n\nPay [online](https://example.com/pay) or [not](javascript:alert(1)).\n\n<script>alert(1)</script>\n");

    const { code, stdout } = await cli("cms", "put", key, "--file", file, "--json");
    expect(code).toBe(0);
    const saved = JSON.parse(stdout);
    expect(saved).toEqual({ key, title: "Repayments", format: "markdown", published: false, updated: saved.created, created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) });
    const row = await db().cmsPage.findUniqueOrThrow({ where: { key } });
    expect(row.html).toBe(
      '<h1>Repayments</h1>\n<p>Pay <a href="https://example.com/pay" rel="noopener noreferrer">online</a> or <a rel="noopener noreferrer">not</a>.</p>\n\n',
    );
    await expect(getPublishedPage(key)).rejects.toMatchObject({ code: "cms_page_not_found" });
  });

  it("saves an HTML file with --title and --publish, and says so in text", async () => {
    const key = uniqueKey("html");
    const file = writeTempFile("page.HTM", '<h2>Rates</h2><img src=x onerror="alert(1)"><p onclick="x()">Fixed.</p>');

    const { code, stdout } = await cli("cms", "put", key, "--file", file, "--title", "Our rates", "--publish");
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(`Saved page ${key} (html, published): Our rates`);
    expect(await getPublishedPage(key)).toMatchObject({ key, title: "Our rates", html: '<h2>Rates</h2><img src="x" /><p>Fixed.</p>' });
  });
});

describe("cms publish, unpublish and list", () => {
  it("publishes and unpublishes a page, and lists it with its visibility", async () => {
    const key = uniqueKey("toggle");
    await savePage({ key, title: "Toggle", format: "markdown", source: "# Toggle\n\nBody.\n" });

    const published = await cli("cms", "publish", key, "--json");
    expect(published.code).toBe(0);
    expect(JSON.parse(published.stdout)).toMatchObject({ key, published: true });
    expect(await getPublishedPage(key)).toMatchObject({ key, title: "Toggle", html: "<h1>Toggle</h1>\n<p>Body.</p>\n" });

    const unpublished = await cli("cms", "unpublish", key);
    expect(unpublished.code).toBe(0);
    expect(unpublished.stdout.trim()).toBe(`Page ${key} is unpublished.`);
    await expect(getPublishedPage(key)).rejects.toMatchObject({ code: "cms_page_not_found" });

    const listed = await cli("cms", "list", "--json");
    expect(listed.code).toBe(0);
    const pages = JSON.parse(listed.stdout) as Array<{ key: string }>;
    expect(pages.find((page) => page.key === key)).toEqual({
      key,
      title: "Toggle",
      format: "markdown",
      published: false,
      updated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it("fails with exit 1 naming an unknown page", async () => {
    const key = uniqueKey("nope");
    const { code, stderr } = await cli("cms", "publish", key);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`error: No such page: ${key}.`);
  });
});

describe("cms usage errors exit 2 with usage", () => {
  it("rejects bad keys, files and titles before touching the database", async () => {
    const markdown = writeTempFile("untitled.md", "No heading here.\n");
    const html = writeTempFile("titled.html", "<h1>Not a title source</h1>");
    const text = writeTempFile("notes.txt", "# Text\n");
    const key = uniqueKey("usage");
    const cases: Array<[string[], string]> = [
      [["cms", "put", "About", "--file", markdown], "KEY must be a lower-case slug"],
      [["cms", "put", "a".repeat(65), "--file", markdown], "KEY must be at most 64 characters"],
      [["cms", "put", key], "--file: is required"],
      [["cms", "put", key, "--file", text], "--file: must end in .md, .markdown, .html or .htm"],
      [["cms", "put", key, "--file", path.join(FILES, "missing.md")], "--file: cannot read"],
      [["cms", "put", key, "--file", markdown], "--title: is required unless the Markdown file starts with"],
      [["cms", "put", key, "--file", html], "--title: is required unless the Markdown file starts with"],
      [["cms", "put", key, "--file", html, "--title", "   "], "--title: must not be empty"],
      [["cms", "publish"], "expected 1 argument(s)"],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(...args)));
    results.forEach(({ code, stdout, stderr }, index) => {
      expect({ args: cases[index]![0], code }).toEqual({ args: cases[index]![0], code: 2 });
      expect(stdout + stderr).toContain(cases[index]![1]);
      expect(stdout + stderr).toContain("Usage: npm run --silent cli --");
    });
    expect(await db().cmsPage.findUnique({ where: { key } })).toBeNull();
  });
});

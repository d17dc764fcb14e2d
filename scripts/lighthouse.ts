// `npm run lighthouse -- --url <page>`: Lighthouse's performance and accessibility audit of a running server's
// page (the home page by default) in Debian's Chromium, as a phone (Lighthouse's default: a mid-range device on
// a slow 4G link, simulated) and as a desktop. Start the production server first (`npm run build && npm start`).
// Prints the scores and writes bench/lighthouse.json; docs/performance.md keeps the latest.
import "./require-node";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";

const { values: flags } = parseArgs({
  options: {
    url: { type: "string", default: `http://127.0.0.1:${process.env.PORT ?? 3000}/` },
    chrome: { type: "string", default: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
  },
});

const CATEGORIES = ["performance", "accessibility"];

const chrome = await chromeLauncher.launch({
  chromePath: flags.chrome,
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const results: Record<string, Record<string, number | null>> = {};
try {
  for (const [formFactor, config] of [["mobile", undefined], ["desktop", desktopConfig]] as const) {
    const run = await lighthouse(flags.url, { port: chrome.port, onlyCategories: CATEGORIES, logLevel: "error", output: "json" }, config);
    if (!run) throw new Error("Lighthouse returned no result");
    const { categories, audits, runtimeError } = run.lhr;
    if (runtimeError) throw new Error(`Lighthouse could not audit ${flags.url}: ${runtimeError.code} ${runtimeError.message}`);
    results[formFactor] = {
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      first_contentful_paint_ms: Math.round(audits["first-contentful-paint"]?.numericValue ?? 0),
      largest_contentful_paint_ms: Math.round(audits["largest-contentful-paint"]?.numericValue ?? 0),
      total_blocking_time_ms: Math.round(audits["total-blocking-time"]?.numericValue ?? 0),
      cumulative_layout_shift: audits["cumulative-layout-shift"]?.numericValue ?? null,
    };
    console.log(`${formFactor}: performance ${results[formFactor]!.performance}, accessibility ${results[formFactor]!.accessibility}`);
  }
} finally {
  await chrome.kill();
}
const out = path.resolve(import.meta.dirname, "..", "bench", "lighthouse.json");
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ url: flags.url, lighthouse: "13.5.0", results }, null, 2)}\n`);

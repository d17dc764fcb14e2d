// /docs/api — the API reference: the generated OpenAPI documents (lib/openapi) rendered by Scalar, served from
// our own origin. The server renders an index of every operation first, so the page is useful before (and
// without) the script, which replaces it with the full reference.
import type { Metadata } from "next";
import Link from "next/link";
import type { Ring } from "@/lib/errors";
import { RINGS } from "@/lib/openapi/document";
import { servedDocument } from "@/lib/openapi/documents";
import { ReferenceRenderer } from "./reference-renderer";

export const metadata: Metadata = { title: "API reference" };
export const dynamic = "force-dynamic";

const SOURCES: Array<{ ring: Ring; slug: string }> = [
  { ring: "partner", slug: "partner-api" },
  { ring: "public", slug: "public-api" },
  { ring: "site", slug: "site-interface" },
];

interface IndexedOperation {
  method: string;
  path: string;
  summary: string;
  scope?: string;
}

async function operationsOf(ring: Ring): Promise<IndexedOperation[] | null> {
  try {
    const document = JSON.parse(await servedDocument(ring)) as { paths: Record<string, Record<string, { summary?: string; "x-scope"?: string }>> };
    return Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, summary: operation.summary ?? "", scope: operation["x-scope"] })),
    );
  } catch {
    return null;
  }
}

const RENDERER_CONFIGURATION = {
  sources: SOURCES.map(({ ring, slug }) => ({ title: RINGS[ring].title, slug, url: `/openapi/${ring}.json` })),
  theme: "default",
  darkMode: false,
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
  documentDownloadType: "json",
  // The default light theme's muted text and method colours fall short of WCAG AA (4.5:1) on its backgrounds.
  customCss: `.light-mode {
    --scalar-color-2: #52606d; --scalar-color-3: #5f6b76; --scalar-color-accent: #0b6e4f;
    --scalar-color-blue: #005a9c; --scalar-color-green: #0b6e4f; --scalar-color-orange: #9a4a00;
    --scalar-color-red: #b3261e; --scalar-color-purple: #5b3cc4; --scalar-color-yellow: #7a5d00;
  }`,
};

export default async function ApiReferencePage() {
  const indexes = await Promise.all(SOURCES.map(async (source) => ({ ...source, operations: await operationsOf(source.ring) })));
  return (
    <ReferenceRenderer configuration={RENDERER_CONFIGURATION}>
      <div className="reference-index">
        <main className="page">
          <p>
            <Link href="/">Lending Platform</Link>
          </p>
          <h1>API reference</h1>
          <p className="lede">
            Every route of the partner API, the public API and the site, generated from the code that serves them. Download the
            OpenAPI 3.1 documents: <a href="/openapi/partner.json">partner.json</a>, <a href="/openapi/public.json">public.json</a>,{" "}
            <a href="/openapi/site.json">site.json</a>.
          </p>
          {indexes.map(({ ring, slug, operations }) => (
            <section key={ring} aria-labelledby={`${slug}-heading`}>
              <h2 id={`${slug}-heading`}>{RINGS[ring].title}</h2>
              <p>{RINGS[ring].description.replace(/`/g, "")}</p>
              {operations === null ? (
                <p role="status">This reference has not been generated yet; `npm run dev` writes it when the server starts.</p>
              ) : (
                <table>
                  <caption className="visually-hidden">{RINGS[ring].title} operations</caption>
                  <thead>
                    <tr>
                      <th scope="col">Method</th>
                      <th scope="col">Path</th>
                      <th scope="col">What it does</th>
                    </tr>
                  </thead>
                  <tbody>
                    {operations.map((operation) => (
                      <tr key={`${operation.method} ${operation.path}`}>
                        <td>
                          <code>{operation.method}</code>
                        </td>
                        <td>
                          <code>
                            {RINGS[ring].basePath}
                            {operation.path}
                          </code>
                        </td>
                        <td>
                          {operation.summary}
                          {operation.scope ? <span className="scope"> (scope {operation.scope})</span> : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          ))}
        </main>
      </div>
    </ReferenceRenderer>
  );
}

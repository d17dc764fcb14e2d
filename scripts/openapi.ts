// Writes the API reference: one OpenAPI 3.1 document per ring (lib/openapi/document.ts) from every route's
// endpoint config, to lib/generated/openapi/<ring>.json, where GET /openapi/<ring>.json serves it with the
// running server's origin. `npm run dev` and `npm start` run this before serving, so the documents always
// describe the routes being served; run it by hand with `npm run openapi`.
import "./require-node";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Ring } from "../lib/errors";
import { openApiDocument } from "../lib/openapi/document";
import { OPENAPI_DIRECTORY } from "../lib/openapi/documents";
import { loadAllEndpoints } from "./route-modules";

export async function writeOpenApiDocuments(): Promise<string[]> {
  const endpoints = await loadAllEndpoints();
  mkdirSync(OPENAPI_DIRECTORY, { recursive: true });
  const rings: Ring[] = ["partner", "public", "site"];
  return rings.map((ring) => {
    const file = path.join(OPENAPI_DIRECTORY, `${ring}.json`);
    writeFileSync(file, `${JSON.stringify(openApiDocument(ring, endpoints, ""), null, 2)}\n`);
    return file;
  });
}

if (import.meta.main) {
  const files = await writeOpenApiDocuments();
  console.log(`API reference: ${files.map((file) => path.relative(process.cwd(), file)).join(", ")}`);
  process.exit(0);
}

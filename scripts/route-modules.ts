// Loads every route module under app/, so the route registry (lib/http/route-registry.ts) holds every
// endpoint: for the OpenAPI documents (scripts/openapi.ts) and the tests that walk every route.
import { readdirSync } from "node:fs";
import path from "node:path";
import { registeredEndpoints, type RegisteredEndpoint } from "../lib/http/route-registry";

const APP = path.resolve(import.meta.dirname, "..", "app");

function routeFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

export async function loadAllEndpoints(): Promise<RegisteredEndpoint[]> {
  for (const file of routeFiles(APP).sort()) await import(file);
  return registeredEndpoints();
}

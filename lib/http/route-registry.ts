// Every endpoint the route builder defines, as declared: the source of the tables other code needs (the scope
// each partner route requires, its limits, the OpenAPI documents), so none is kept beside the routes by hand.
// A route is registered when its module loads; `tests/helpers/routes.ts` loads them all.
import type { Ring } from "../errors";
import type { DeclarableMethod, DeclaredConfig } from "./endpoint";

export interface RegisteredEndpoint {
  ring: Ring;
  method: DeclarableMethod;
  /** The route's pattern within its ring: `/keys/{id}` for /partner/v1/keys/[id]. */
  path: string;
  config: DeclaredConfig;
}

const registered = new Map<string, RegisteredEndpoint>();

export function registerEndpoint(endpoint: RegisteredEndpoint): void {
  registered.set(`${endpoint.ring} ${endpoint.method} ${endpoint.path}`, endpoint);
}

/** The endpoints of every route module loaded so far, in a stable order. */
export function registeredEndpoints(): RegisteredEndpoint[] {
  return [...registered.values()].sort((a, b) => `${a.ring} ${a.path} ${a.method}`.localeCompare(`${b.ring} ${b.path} ${b.method}`));
}

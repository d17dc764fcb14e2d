// Which route handlers the route builder made. Our HTTP server serves those routes without Next's router
// (scripts/direct-routes.ts); a route file of another making (next-auth's, Inngest's) may lean on Next's request
// and stays with Next. The mark is a registered symbol, not a module's WeakSet, because the server reads it on the
// build's bundled copy of this module.
const BUILT = Symbol.for("lending.route-builder");

/** Marks handlers the route builder made. */
export function markBuilt<Handlers extends object>(handlers: Handlers): Handlers {
  for (const handler of Object.values(handlers)) (handler as Record<symbol, boolean>)[BUILT] = true;
  return handlers;
}

/** Whether a route module's handlers are all the route builder's. */
export function isBuiltRoute(module: object): boolean {
  const handlers = Object.values(module).filter((value) => typeof value === "function");
  return handlers.length > 0 && handlers.every((handler) => (handler as Record<symbol, unknown>)[BUILT] === true);
}

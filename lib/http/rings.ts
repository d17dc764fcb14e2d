import type { Ring } from "../errors";

/** Where each ring's routes are served: a route's full path is its ring's base path and its pattern. */
export const RING_BASE_PATHS: Record<Ring, string> = { partner: "/partner/v1", public: "/public/v1", site: "" };

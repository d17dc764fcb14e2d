// Every endpoint of every route module under app/ (the loader is shared with scripts/openapi.ts).
export { loadAllEndpoints } from "../../scripts/route-modules";

// Where every apply link the platform hands out points: the site's Apply page (docs/apply-directly.md). The site,
// the assistant's answers and the public MCP server's how_to_apply all take it from here.
import { config } from "../env";

export const DIRECT_APPLY_PATH = "/apply";

export function directApplyUrl(): string {
  return `${config().BASE_URL}${DIRECT_APPLY_PATH}`;
}

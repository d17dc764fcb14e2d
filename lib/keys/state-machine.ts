// An API key's one move (spec 3.6), made by `revokeKey` (lib/keys/service.ts). An expired key is still `active`:
// its expiry is read from `expiresAt`.
import type { ApiKey } from "../generated/prisma/client";
import type { Lifecycle } from "../lifecycle";

export const API_KEY_LIFECYCLE: Lifecycle<ApiKey["status"], "revoke"> = {
  object: "API key",
  moves: { revoke: { from: ["active"], to: "revoked", events: [] } },
  said: { revoke: "revoked" },
};

// Who may read the operators' surfaces (GET /healthz/internal). In production, only the bearer of
// HEALTHZ_INTERNAL_TOKEN: behind a reverse proxy on the same machine every caller's socket peer is loopback, so
// "from this machine" proves nothing unless TRUSTED_PROXY_HEADER is set, and forgetting that must not open them.
// Elsewhere (development, tests) a request from this machine that no proxy forwarded may read them as well.
import { createHash, timingSafeEqual } from "node:crypto";
import { config, type Config } from "../env";
import { isLocalRequest } from "../wire/client-address";

const digest = (value: string) => createHash("sha256").update(value).digest();

function carriesToken(request: Request, token: string): boolean {
  const presented = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(request.headers.get("authorization")?.trim() ?? "")?.[1];
  // Digests of equal length, so the comparison takes the same time whatever was sent.
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

export function isOperatorRequest(request: Request, settings: Pick<Config, "NODE_ENV" | "HEALTHZ_INTERNAL_TOKEN"> = config()): boolean {
  if (settings.HEALTHZ_INTERNAL_TOKEN && carriesToken(request, settings.HEALTHZ_INTERNAL_TOKEN)) return true;
  return settings.NODE_ENV !== "production" && isLocalRequest(request);
}

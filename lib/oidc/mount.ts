// The sign-in provider on our own node:http server: scripts/http-server.ts and tests/helpers/app-server.ts hand it
// every request isSignInProviderRequest (lib/oidc/mount-path.ts) claims, before Next. The interaction forms' posts
// are answered here (lib/oidc/interactions.ts); everything else goes to oidc-provider with the SSO path taken off,
// its host and protocol set from SSO_URL, so every URL it writes is the issuer's whoever the client thinks it is.
// Every answer gets an X-Request-Id and one log line without query string, tokens, codes, emails or cookies.
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import { config, SSO_PATH } from "../env";
import { ApiError, renderErrorPage } from "../errors";
import { newId } from "../ids";
import { describeError, log } from "../log";
import { handleInteractionPost } from "./interactions";
import { createSignInProvider } from "./provider";

type NodeHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

let started: Promise<{ provider: Provider; handle: NodeHandler }> | undefined;

function signInProvider(): Promise<{ provider: Provider; handle: NodeHandler }> {
  started ??= createSignInProvider()
    .then((provider) => {
      provider.on("server_error", (_ctx: unknown, error: unknown) => log.error("sign-in provider fault", describeError(error)));
      const callback = provider.callback();
      return { provider, handle: (request: IncomingMessage, response: ServerResponse) => callback(request, response) as Promise<void> };
    })
    .catch((error: unknown) => {
      started = undefined;
      throw error;
    });
  return started;
}

const INTERACTION_POST = new RegExp(`^${SSO_PATH}/interaction/([A-Za-z0-9_-]{1,64})/(login|consent)$`);

/** Our headers on whatever the provider writes, and the one log line once the answer is sent. */
function stampResponse(request: IncomingMessage, response: ServerResponse, requestId: string, pathname: string): void {
  const started = performance.now();
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    this.setHeader("X-Request-Id", requestId);
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
  response.on("finish", () => {
    log.info("sign-in request", {
      request_id: requestId,
      method: request.method,
      path: pathname,
      status: response.statusCode,
      duration_ms: Math.round(performance.now() - started),
    });
  });
}

export async function handleSignInProviderRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const requestId = newId("request");
  const pathname = (request.url ?? "/").split("?", 1)[0]!;
  stampResponse(request, response, requestId, pathname);
  try {
    const { provider, handle } = await signInProvider();
    const interactionPost = request.method === "POST" ? INTERACTION_POST.exec(pathname) : null;
    if (interactionPost) {
      await handleInteractionPost(provider, request, response, { uid: interactionPost[1]!, step: interactionPost[2] as "login" | "consent" }, newId("correlation"));
      return;
    }
    const issuer = new URL(config().SSO_URL);
    (request as IncomingMessage & { originalUrl?: string }).originalUrl = request.url;
    request.url = request.url!.slice(SSO_PATH.length) || "/";
    if (!request.url.startsWith("/")) request.url = `/${request.url}`;
    request.headers["x-forwarded-host"] = issuer.host;
    request.headers["x-forwarded-proto"] = issuer.protocol.slice(0, -1);
    delete request.headers["x-forwarded-for"];
    delete request.headers.forwarded;
    await handle(request, response);
  } catch (error) {
    const correlationId = newId("correlation");
    log.error("sign-in request failed", { request_id: requestId, correlation_id: correlationId, path: pathname, ...describeError(error) });
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const rendered = renderErrorPage(new ApiError("internal_error"), correlationId);
    response.writeHead(rendered.status, rendered.headers);
    response.end(rendered.body);
  }
}

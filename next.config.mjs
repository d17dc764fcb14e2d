// Plain JavaScript, not TypeScript: Next compiles a next.config.ts with its native compiler on every start, which
// loads that compiler into the production server for nothing (about 25 MB resident; docs/performance.md, "Memory").

/** @type {import("next").NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Minified server code: V8 keeps every module's source text in the heap, and unminified it held about 45 MB
  // more under load (docs/performance.md, "Memory"). Stack traces and CPU profiles name minified functions;
  // the source maps beside the chunks in .next/server map them back.
  experimental: { serverMinification: true },
  // `next dev` logs each request's path; the hosted pages' paths are capabilities (a journey's handoff token, a
  // payment link's token), which never go to a log. Our own request log names routes by pattern (lib/http).
  logging: { incomingRequests: { ignore: [/\/apply\/(?!v1\/)[^/?]+/, /\/pay\/[^/?]+/] } },
  // `next dev`'s indicator injects inline styles, which every page's policy refuses (no inline style outside the
  // API reference): it showed as an empty grey box at the bottom left of the journey's pages. Off; the dev overlay
  // for errors still shows.
  devIndicators: false,
};

export default nextConfig;

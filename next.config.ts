import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Readable server code: production stack traces and CPU profiles name our functions (npm start runs
  // without source maps, see scripts/serve.ts); minifying server code saved nothing measurable.
  experimental: { serverMinification: false },
};

export default nextConfig;

import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { AssistantPanel } from "./_components/assistant-panel";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Lending Platform", template: "%s · Lending Platform" },
  description: "Business loans, Flex credit and Slice instalments for UK limited companies and LLPs.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request: its scripts carry the nonce of its own Content-Security-Policy (proxy.ts),
  // which a page rendered once at build time could not. The site's visitor-independent pages are then replayed by
  // our HTTP server with a fresh nonce written over the rendered one (lib/pages/page-replay.ts).
  await connection();
  return (
    <html lang="en-GB">
      <body>{children}<AssistantPanel /></body>
    </html>
  );
}

// The marketing site's frame (issue 29): a skip link, the header with the site's navigation, the page, the footer
// with the legal pages, cookies and contact, and the cookie banner. The root layout (app/layout.tsx) stays the
// document around it.
import type { ReactNode } from "react";
import { CookieBanner } from "./_components/cookie-banner";
import { SiteFooter } from "./_components/site-footer";
import { SiteNav } from "./_components/site-nav";
import "./site.css";

export default function SiteLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="site-header">
        <div className="site-header__inner">
          <a className="site-brand" href="/">
            Lending Platform
          </a>
          <SiteNav />
        </div>
      </header>
      <div className="site-main" id="main" tabIndex={-1}>
        {children}
      </div>
      <SiteFooter />
      <CookieBanner />
    </>
  );
}

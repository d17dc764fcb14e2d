// The site's footer: the pages people look for at the bottom of a page (legal, cookies, contact).
import { FOOTER_SECTIONS } from "./site-links";

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <div className="site-footer__columns">
          {FOOTER_SECTIONS.map((section) => (
            <nav key={section.heading} aria-label={section.heading}>
              <h2>{section.heading}</h2>
              <ul>
                {section.links.map((link) => (
                  <li key={link.href}>
                    <a href={link.href}>{link.label}</a>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <p className="site-footer__small">
          Lending to UK limited companies and limited liability partnerships only. Business lending to companies is not
          regulated by the Financial Conduct Authority under the Consumer Credit Act.
        </p>
      </div>
    </footer>
  );
}

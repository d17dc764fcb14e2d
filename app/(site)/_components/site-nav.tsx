"use client";
// The site's main navigation; the link of the page being shown says so to assistive technology (aria-current).
import Link from "next/link";
import { usePathname } from "next/navigation";
import { SITE_NAVIGATION } from "./site-links";

export function SiteNav() {
  const pathname = usePathname();
  return (
    <nav className="site-nav" aria-label="Main">
      <ul>
        {SITE_NAVIGATION.map((link) => (
          <li key={link.href}>
            {/* Apply and sign in lead to other parts of the platform, with pages of their own policies: whole loads. */}
            {link.external ? (
              <a href={link.href}>{link.label}</a>
            ) : (
              <Link href={link.href} aria-current={pathname === link.href ? "page" : undefined}>
                {link.label}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

// Where the site's header and footer lead. `/apply` is the direct application page and `/account` the borrower
// area's sign-in; both are other parts of the platform, so they load as whole documents.

export interface SiteLink {
  href: string;
  label: string;
  external?: boolean;
}

export const SITE_NAVIGATION: readonly SiteLink[] = [
  { href: "/products", label: "Products" },
  { href: "/quote", label: "Get a quote" },
  { href: "/apply", label: "Apply", external: true },
  { href: "/account", label: "Sign in", external: true },
  { href: "/partners", label: "Partners and developers" },
  { href: "/faq", label: "Help" },
];

export const FOOTER_SECTIONS: ReadonlyArray<{ heading: string; links: readonly SiteLink[] }> = [
  {
    heading: "Borrowing",
    links: [
      { href: "/products", label: "Products" },
      { href: "/quote", label: "Quote calculator" },
      { href: "/eligibility", label: "Who can borrow" },
      { href: "/how-to-apply", label: "How to apply" },
      { href: "/loyalty", label: "Loyalty tiers" },
    ],
  },
  {
    heading: "Help",
    links: [
      { href: "/faq", label: "Questions and answers" },
      { href: "/contact", label: "Contact us" },
      { href: "/complaints", label: "Complaints" },
      { href: "/about", label: "About us" },
    ],
  },
  {
    heading: "Legal",
    links: [
      { href: "/terms", label: "Terms of use" },
      { href: "/privacy", label: "Privacy notice" },
      { href: "/cookies", label: "Cookies" },
    ],
  },
  {
    heading: "Partners and developers",
    links: [
      { href: "/partners", label: "Partner with us" },
      { href: "/docs/api", label: "API reference", external: true },
    ],
  },
];

// /eligibility — who can borrow (UK limited companies and LLPs only), who applies for them, and why the products sit
// outside consumer-credit regulation.
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Who can borrow", description: "We lend to UK limited companies and LLPs only." };

export default function EligibilityPage() {
  return (
    <main className="page">
      <h1>Who can borrow</h1>
      <p className="lede">We lend to UK limited companies and limited liability partnerships (LLPs), and to no one else.</p>
      <h2>Your business can apply if it is</h2>
      <ul>
        <li>a private or public limited company registered at Companies House in England and Wales, Scotland or Northern Ireland, or</li>
        <li>a limited liability partnership registered at Companies House,</li>
      </ul>
      <p>and it is active: not dissolved, in liquidation or in administration.</p>
      <h2>We cannot lend to</h2>
      <ul>
        <li>sole traders</li>
        <li>ordinary or limited partnerships that are not LLPs</li>
        <li>individuals, for personal or household spending</li>
        <li>companies that have been dissolved or struck off</li>
      </ul>
      <h2>Who applies</h2>
      <p>
        A director of the company applies for it, or, for an LLP, a designated member. We verify their identity and check the
        company at Companies House, look at the business bank account through open banking, and, with consent, search the
        business credit file.
      </p>
      <h2>How these products are regulated</h2>
      <p>
        Business Loan and Flex are commercial credit to companies. Lending to a limited company or an LLP is not regulated by
        the Financial Conduct Authority under the Consumer Credit Act, so the protections of consumer credit agreements do
        not apply. Slice spreads a supplier&apos;s bill over instalments for one fixed fee and is not credit. We still show the
        full cost before you commit, and our <a href="/complaints">complaints process</a> is open to every customer.
      </p>
      <p className="actions">
        <a className="button" href="/apply">
          Apply
        </a>
        <a className="button button--secondary" href="/how-to-apply">
          How applying works
        </a>
      </p>
    </main>
  );
}

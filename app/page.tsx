export default function HomePage() {
  return (
    <main className="page">
      <h1>Finance for UK limited companies and LLPs</h1>
      <p className="lede">
        Business loans, a revolving Flex facility and Slice instalments for suppliers, decided in minutes and
        available through our partners or directly.
      </p>
      <ul className="products" aria-label="Products">
        <li>
          <h2>Business Loan</h2>
          <p>A fixed sum repaid over an agreed term, with the total cost shown before you commit.</p>
        </li>
        <li>
          <h2>Flex</h2>
          <p>A revolving credit facility: draw what you need, repay, and draw again.</p>
        </li>
        <li>
          <h2>Slice</h2>
          <p>Pay accepted billers now and spread the cost over a short period for a fixed fee.</p>
        </li>
      </ul>
      {/* A plain link, so the reference loads as a document with its own Content-Security-Policy (Scalar writes inline
          styles): a client-side navigation would keep this page's policy, which blocks them. */}
      <p>
        Building an integration? Every route is in the <a href="/docs/api">API reference</a>; the platform&apos;s{" "}
        <a href="/public/v1/healthz">health</a> is public too.
      </p>
    </main>
  );
}

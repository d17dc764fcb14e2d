// A dashboard address that names nothing: an unknown id, a project whose team the person is not in, or a filter
// value the list does not know (a hand-edited link, say). One answer for all three (404), so ids cannot be probed.
import "../../(account)/account/account.css";
import "./dashboard.css";

export default function DashboardNotFound() {
  return (
    <main className="dashboard">
      <h1>Page not found</h1>
      <p>There is nothing at this address in the dashboard. If you typed or pasted it, check it: an id or a filter value in it may be wrong, or the project may not be one whose team you are in.</p>
      <p>
        <a className="account-link" href="/dashboard">
          Go to your dashboard
        </a>
      </p>
    </main>
  );
}

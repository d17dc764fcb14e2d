// GET /dashboard — the partner dashboard's front door (docs/dashboard.md): signed-in people go to their project's
// keys (the first, or the one they choose when they have several); someone in no team is told how to join one.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { membershipsOf } from "@/lib/team/service";
import { signedInOrRedirect } from "./_components/signed-in";
import "../../(account)/account/account.css";
import "./dashboard.css";
import { SignOutButton } from "@/app/_auth/sign-out-button";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Dashboard", robots: { index: false, follow: false } };

export default async function DashboardHome() {
  const userId = await signedInOrRedirect("/dashboard");
  const memberships = await membershipsOf(userId);
  if (memberships.length === 1) redirect(`/dashboard/${memberships[0]!.projectId}/sandbox/keys`);
  return (
    <main className="dashboard">
      <header className="dashboard-header">
        <h1>Dashboard</h1>
        <SignOutButton />
      </header>
      {memberships.length === 0 ? (
        <div className="account-card">
          <h2>You are not in a project team yet</h2>
          <p>The dashboard shows the projects whose team you belong to. Ask an owner of your company&apos;s project to add you, using the email address you signed in with.</p>
        </div>
      ) : (
        <section aria-labelledby="projects-heading">
          <h2 id="projects-heading">Your projects</h2>
          <ul>
            {memberships.map((member) => (
              <li key={member.projectId}>
                <a href={`/dashboard/${member.projectId}/sandbox/keys`}>{member.projectName}</a> ({member.role})
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}

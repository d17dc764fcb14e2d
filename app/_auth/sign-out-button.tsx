// The one Sign out control of the areas people sign in to (the borrower area, the dashboard): a plain form post that
// ends the app's session and the provider's (app/api/account/sign-out).
export function SignOutButton() {
  return (
    <form method="post" action="/api/account/sign-out">
      <button type="submit" className="account-button account-button-secondary">
        Sign out
      </button>
    </form>
  );
}

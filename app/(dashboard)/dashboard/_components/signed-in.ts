import { redirect } from "next/navigation";
import { signedInUserIdOfPage } from "@/app/_auth/signed-in-user";

/** The signed-in person's user id; anyone else is sent to sign in, and comes back to `returnTo` afterwards. */
export async function signedInOrRedirect(returnTo: string): Promise<string> {
  const userId = await signedInUserIdOfPage();
  if (!userId) redirect(`/dashboard/sign-in?${new URLSearchParams({ return_to: returnTo })}`);
  return userId;
}

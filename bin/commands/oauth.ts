import { rotateSigningKey } from "../../lib/oauth/signing-keys";
import { config } from "../../lib/env";
import { UsageError, type Command } from "../cli-kit";

export const oauthRotateSigningKey: Command = {
  words: ["oauth", "rotate-signing-key"],
  synopsis: "[--json]",
  description: "Start signing access tokens with a new key; the old one stays in the JWKS for two hours. Restart app processes to pick it up.",
  options: {},
  async run({ database, print }) {
    if (config().OAUTH_SIGNING_KEY) throw new UsageError("OAUTH_SIGNING_KEY is set: rotate by changing it (and listing the old key in OAUTH_PREVIOUS_SIGNING_KEYS)");
    await database();
    await rotateSigningKey();
    print("Rotated the token signing key.", { rotated: true });
  },
};

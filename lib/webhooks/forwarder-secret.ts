// The signing secret of `cli listen`, one per project (by client id) on this machine, kept in a file under the
// local data folder so that every run signs with the secret the developer's receiver is already configured with,
// as `stripe listen` does. Only its owner may read the file (mode 0600): the secret is a credential of the
// receiver, if only a local one.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { randomToken } from "../ids";
import { ForwarderError } from "./forwarder";

const FILE_MODE = 0o600;

const storedSecretsSchema = z.record(requestString(), requestString().regex(/^whsec_[0-9A-Za-z]+$/));

type StoredSecrets = z.infer<typeof storedSecretsSchema>;

function newSecret(): string {
  return `whsec_${randomToken(40)}`;
}

function readSecrets(file: string): StoredSecrets {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ForwarderError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return storedSecretsSchema.parse(JSON.parse(text));
  } catch {
    throw new ForwarderError(`${file} is not a file of forwarding secrets; move it away and run again for new ones`);
  }
}

/** Written whole to a neighbour and renamed over the file, so a reader never sees half of it. */
function writeSecrets(file: string, secrets: StoredSecrets): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(secrets, null, 2)}\n`, { mode: FILE_MODE });
  // The mode given to writeFileSync is narrowed by the umask, never widened; chmod states it outright.
  chmodSync(partial, FILE_MODE);
  renameSync(partial, file);
}

/** The project's secret from `file`, created (and stored) when it has none. */
export function readOrCreateForwarderSecret(file: string, clientId: string): string {
  const secrets = readSecrets(file);
  const stored = secrets[clientId];
  if (stored) return stored;
  const secret = newSecret();
  writeSecrets(file, { ...secrets, [clientId]: secret });
  return secret;
}

/** Replaces the project's secret with a new one; the old one signs nothing from now on. */
export function rotateForwarderSecret(file: string, clientId: string): string {
  const secret = newSecret();
  writeSecrets(file, { ...readSecrets(file), [clientId]: secret });
  return secret;
}

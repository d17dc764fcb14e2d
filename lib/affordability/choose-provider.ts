// Which open-banking provider reads a company's turnover: the sandbox's simulated bank in the sandbox; none in
// live until a real provider is connected, so live affordability comes from the partner's own figures.
import type { KeyEnvironment } from "../keys/secrets";
import type { OpenBankingProvider } from "./provider";
import { SandboxBank } from "./sandbox-bank";

const sandboxBank = new SandboxBank();

export function openBankingProviderFor(environment: KeyEnvironment): OpenBankingProvider | null {
  return environment === "sandbox" ? sandboxBank : null;
}

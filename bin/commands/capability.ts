import { changeProjectCapabilities, isProjectCapability, PROJECT_CAPABILITIES, readProjectCapabilities, type ProjectCapability } from "../../lib/projects/capabilities";
import { UsageError, type Command } from "../cli-kit";

const CHOICES = PROJECT_CAPABILITIES.join("|");

/** The capabilities given to a repeatable flag; an unknown one is a usage error naming it. */
function capabilitiesOf(flag: "enable" | "disable", value: string | boolean | string[] | undefined): ProjectCapability[] {
  const given = value === undefined ? [] : [value].flat().map(String);
  for (const capability of given) {
    if (!isProjectCapability(capability)) throw new UsageError(`--${flag}: unknown capability "${capability}" (capabilities: ${PROJECT_CAPABILITIES.join(", ")})`);
  }
  return given as ProjectCapability[];
}

export const projectCapability: Command = {
  words: ["project", "capability"],
  synopsis: `proj_... [--enable ${CHOICES}]... [--disable ${CHOICES}]... [--json]`,
  description: "Show a project's capabilities, or switch them on and off (white_label unlocks the identity endpoints).",
  options: {
    enable: { type: "string", multiple: true, value: "CAPABILITY", description: `Switch a capability on (${CHOICES}); repeatable.` },
    disable: { type: "string", multiple: true, value: "CAPABILITY", description: `Switch a capability off (${CHOICES}); repeatable.` },
  },
  positionals: 1,
  async run({ positionals, values, database, print }) {
    const projectId = positionals[0]!;
    const enable = capabilitiesOf("enable", values.enable);
    const disable = capabilitiesOf("disable", values.disable);
    const both = enable.filter((capability) => disable.includes(capability));
    if (both.length > 0) throw new UsageError(`cannot both --enable and --disable ${both.join(", ")}`);
    const capabilities =
      enable.length + disable.length === 0
        ? await readProjectCapabilities(await database(), projectId)
        : await changeProjectCapabilities(await database(), projectId, { enable, disable });
    print(`Project ${projectId} capabilities: ${capabilities.length > 0 ? capabilities.join(", ") : "none"}.`, { project_id: projectId, capabilities });
  },
};

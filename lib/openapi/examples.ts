// The example a reply's documentation shows, built from its JSON Schema: the values the schemas name
// (`.meta({ examples })`, a constant, the first of an enum), and elsewhere a value that fits the schema and
// reads like one of ours (an id with its prefix, a timestamp, a URL), never a bound picked at random (the
// reference's renderer, left to itself, shows an unbounded integer as -9007199254740991).
type JsonSchema = Record<string, unknown>;

const EXAMPLE_INSTANT = "2026-11-27T09:30:00.000Z";
const EXAMPLE_DATE = "2026-11-27";
const EXAMPLE_ID_SUFFIX = "01kb2c3d4e5f6g7h8j9k0m1n2p";

const STRING_FORMATS: Record<string, string> = {
  "date-time": EXAMPLE_INSTANT,
  date: EXAMPLE_DATE,
  uri: "https://example.com/path",
  email: "name@example.co.uk",
};

/** An example value of `schema`; `$ref`s resolve against `components`. */
export function exampleOf(schema: JsonSchema, components: Record<string, JsonSchema>, seen: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.split("/").pop()!;
    // A schema that contains itself is shown once.
    if (seen.has(name) || !components[name]) return {};
    return exampleOf(components[name], components, new Set([...seen, name]));
  }
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) {
    // A field that may be null is shown null (as on a new object) unless its schema names an example.
    const named = alternatives.find((alternative) => Array.isArray(alternative.examples));
    if (named) return exampleOf(named, components, seen);
    if (alternatives.some((alternative) => alternative.type === "null")) return null;
    return exampleOf(alternatives[0]!, components, seen);
  }
  if (Array.isArray(schema.type) && schema.type.includes("null") && !Array.isArray(schema.examples)) return null;
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...(schema.allOf as JsonSchema[]).map((part) => exampleOf(part, components, seen)));
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((candidate) => candidate !== "null") : schema.type;
  switch (type) {
    case "object":
      return Object.fromEntries(Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {}).map(([name, property]) => [name, exampleOf(property, components, seen)]));
    case "array": {
      const item = exampleOf((schema.items as JsonSchema | undefined) ?? {}, components, seen);
      return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => item);
    }
    case "string":
      return stringExample(schema);
    case "integer":
    case "number":
      return numberExample(schema);
    case "boolean":
      return true;
    default:
      return null;
  }
}

function stringExample(schema: JsonSchema): string {
  const format = typeof schema.format === "string" ? STRING_FORMATS[schema.format] : undefined;
  if (format) return format;
  // Our ids: a prefix, an underscore and a sortable suffix (lib/ids.ts).
  const prefix = typeof schema.pattern === "string" ? /^\^([a-z]+(?:_[a-z]+)*)_\[0-9a-z\]\+\$$/.exec(schema.pattern)?.[1] : undefined;
  if (prefix) return `${prefix}_${EXAMPLE_ID_SUFFIX}`;
  const minLength = Number(schema.minLength ?? 0);
  return "string".padEnd(minLength, "s");
}

/** A number inside the schema's bounds: its least allowed value, or 1 when it has none. */
function numberExample(schema: JsonSchema): number {
  const step = schema.type === "integer" ? 1 : 0.01;
  if (typeof schema.minimum === "number") return schema.minimum;
  if (typeof schema.exclusiveMinimum === "number") return schema.exclusiveMinimum + step;
  if (typeof schema.maximum === "number") return Math.min(schema.maximum, 1);
  if (typeof schema.exclusiveMaximum === "number") return Math.min(schema.exclusiveMaximum - step, 1);
  return 1;
}

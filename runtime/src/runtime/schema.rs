//! The official JSON Schema of each generated type, for the `schemars` feature: the schema
//! file's own text, its `$ref`s pointed at the generator's definitions.

use serde_json::Value;

/// A definition name and how to get its schema from the generator.
#[cfg(feature = "schemars")]
pub type SchemaRef = (
    &'static str,
    fn(&mut schemars::SchemaGenerator) -> schemars::Schema,
);

/// The official schema of a definition, its `$ref`s pointed at the generator's definitions.
#[cfg(feature = "schemars")]
pub fn official_schema(
    generator: &mut schemars::SchemaGenerator,
    json: &str,
    refs: &[SchemaRef],
) -> schemars::Schema {
    fn resolve(value: &mut Value, generator: &mut schemars::SchemaGenerator, refs: &[SchemaRef]) {
        match value {
            Value::Object(object) => {
                let target = object
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| r.rsplit('/').next())
                    .and_then(|name| refs.iter().find(|(n, _)| *n == name));
                if let Some((_, subschema)) = target {
                    let resolved = subschema(generator).to_value();
                    object.remove("$ref");
                    if let Value::Object(resolved) = resolved {
                        for (k, v) in resolved {
                            object.entry(k).or_insert(v);
                        }
                    }
                }
                for child in object.values_mut() {
                    resolve(child, generator, refs);
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| resolve(v, generator, refs)),
            _ => {}
        }
    }
    // The JSON is the schema file's own text, so it always parses; `true` is the safe fallback.
    let mut value: Value = crate::json::from_str(json).unwrap_or(Value::Bool(true));
    resolve(&mut value, generator, refs);
    schemars::Schema::try_from(value).unwrap_or_default()
}

//! A tool's `x-mcp-header` annotations: the `Mcp-Param-{Name}` headers a client adds to a
//! `tools/call` and a server checks (the transport page, §Custom Headers).

use super::*;

/// The annotation a tool's input schema puts on a property to have it mirrored in a header.
pub const X_MCP_HEADER: &str = "x-mcp-header";

/// The type of an annotated parameter: the spec allows only these three.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ParamType {
    /// `"type": "string"`: sent as it is.
    String,
    /// `"type": "integer"`: sent in decimal; values must be within ±(2^53 − 1).
    Integer,
    /// `"type": "boolean"`: sent as `true` or `false`.
    Boolean,
}

/// One `x-mcp-header` annotation of a tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamHeader {
    /// The annotation's value, `{Name}` of `Mcp-Param-{Name}`.
    pub name: String,
    /// The property names from the input schema's root to the annotated property.
    pub path: Vec<String>,
    /// The property's type.
    pub param_type: ParamType,
}

impl ParamHeader {
    /// The header's name: `Mcp-Param-{name}`.
    pub fn header_name(&self) -> String {
        format!("{MCP_PARAM_PREFIX}{}", self.name)
    }

    /// The argument value at [`path`](Self::path) in a call's `arguments`; `None` when absent
    /// or `null` (the header is then omitted).
    pub fn value<'a>(&self, arguments: Option<&'a Value>) -> Option<&'a Value> {
        let mut value = arguments?;
        for key in &self.path {
            value = value.get(key)?;
        }
        (!value.is_null()).then_some(value)
    }
}

/// The largest integer an annotated integer parameter may carry (2^53 − 1): the spec bounds
/// them to the range JavaScript numbers hold exactly.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// The `x-mcp-header` annotations of one tool's `inputSchema`, checked against the spec's
/// constraints (the transport page,
/// [§Custom Headers from Tool Parameters](https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#custom-headers-from-tool-parameters),
/// and the tools page, [§x-mcp-header](https://modelcontextprotocol.io/specification/2026-07-28/server/tools#x-mcp-header)).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolHeaders {
    params: Vec<ParamHeader>,
}

/// A tool definition whose `x-mcp-header` annotations break the spec's constraints. A client
/// on Streamable HTTP must leave the tool out of what `tools/list` gives its user (and should
/// log this error with the tool's name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidToolHeader {
    /// Where the annotation is, as a JSON pointer into the input schema
    /// (`/properties/region`).
    pub pointer: String,
    /// What is wrong with it.
    pub reason: InvalidReason,
}

/// Which constraint an `x-mcp-header` annotation breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidReason {
    /// The annotation is not a string.
    NotAString,
    /// The annotation is the empty string.
    Empty,
    /// The annotation has a character an HTTP field name may not hold (RFC 9110 §5.1 `tchar`):
    /// a space, a colon, a control character, a non-ASCII character...
    InvalidCharacter(char),
    /// Another annotation has the same name, compared case-insensitively.
    Duplicate(String),
    /// The property's `type` is not `string`, `integer` or `boolean` (`number`, `object`,
    /// `array`, `null`, several of them, or none), each possibly with `"null"` beside it: the
    /// value found.
    NotPrimitive(Value),
    /// The annotation is not on a property reached from the root through `properties` alone
    /// (it is under `items`, `oneOf`, `$ref`'d definitions, or on the root itself).
    NotStaticallyReachable,
}

impl fmt::Display for InvalidToolHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x-mcp-header at {}: ", self.pointer)?;
        match &self.reason {
            InvalidReason::NotAString => f.write_str("not a string"),
            InvalidReason::Empty => f.write_str("empty"),
            InvalidReason::InvalidCharacter(c) => {
                write!(f, "{c:?} is not allowed in a header name")
            }
            InvalidReason::Duplicate(name) => {
                write!(
                    f,
                    "{name:?} is used by another parameter (case-insensitively)"
                )
            }
            InvalidReason::NotPrimitive(ty) => {
                write!(f, "type {ty} is not one of string, integer, boolean")
            }
            InvalidReason::NotStaticallyReachable => {
                f.write_str("not on a property reached through `properties` alone")
            }
        }
    }
}

impl core::error::Error for InvalidToolHeader {}

/// Why an argument cannot be sent in its `Mcp-Param-*` header.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamValueError {
    /// The header (`Mcp-Param-Region`).
    pub header: String,
    /// The argument, which does not have the parameter's type or is an integer out of the
    /// safe range.
    pub value: Value,
    /// The parameter's declared type.
    pub param_type: ParamType,
}

impl fmt::Display for ParamValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: argument {} is not a {:?} a header can carry",
            self.header, self.value, self.param_type
        )
    }
}

impl core::error::Error for ParamValueError {}

/// Schema keywords whose value is one subschema.
const SUBSCHEMA: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];
/// Schema keywords whose value is an array of subschemas.
const SUBSCHEMA_ARRAYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/// Schema keywords whose value maps names to subschemas (`properties` is handled apart).
const SUBSCHEMA_MAPS: &[&str] = &[
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
];

impl ToolHeaders {
    /// Reads and checks the annotations of a tool's `inputSchema`. Annotated properties may be
    /// nested (`properties` of `properties`), as the spec allows; every other place an
    /// annotation can hide in a schema (`items`, `oneOf`, `$defs`...) makes the tool invalid.
    ///
    /// ```
    /// use mcp_spec_types::http_headers::{InvalidReason, ToolHeaders};
    /// use serde_json::json;
    ///
    /// let headers = ToolHeaders::from_input_schema(&json!({
    ///     "type": "object",
    ///     "properties": { "region": { "type": "string", "x-mcp-header": "Region" } }
    /// })).unwrap();
    /// assert_eq!(headers.params()[0].header_name(), "Mcp-Param-Region");
    ///
    /// let invalid = ToolHeaders::from_input_schema(&json!({
    ///     "type": "object",
    ///     "properties": { "region": { "type": "string", "x-mcp-header": "My Region" } }
    /// })).unwrap_err();
    /// assert_eq!(invalid.reason, InvalidReason::InvalidCharacter(' '));
    /// ```
    pub fn from_input_schema(schema: &Value) -> Result<ToolHeaders, InvalidToolHeader> {
        match schema {
            Value::Object(members) => ToolHeaders::from_schema_members(members),
            _ => Ok(ToolHeaders::default()),
        }
    }

    /// [`ToolHeaders::from_input_schema`] of the schema object whose members are `members`
    /// (a generated `ToolInputSchema` keeps them as they came), without copying them.
    pub(crate) fn from_schema_members(
        members: &Map<String, Value>,
    ) -> Result<ToolHeaders, InvalidToolHeader> {
        let mut headers = ToolHeaders::default();
        let mut path = Vec::new();
        headers.walk_object(members, "", Some(&mut path))?;
        Ok(headers)
    }

    /// The annotations, in the order `serde_json` keeps the property names.
    pub fn params(&self) -> &[ParamHeader] {
        &self.params
    }

    /// Whether the tool has no annotation.
    pub fn is_empty(&self) -> bool {
        self.params.is_empty()
    }

    /// `reachable` is the property path when the schema at `pointer` is reached from the root
    /// through `properties` alone.
    fn walk(
        &mut self,
        schema: &Value,
        pointer: &str,
        reachable: Option<&mut Vec<String>>,
    ) -> Result<(), InvalidToolHeader> {
        match schema {
            Value::Object(schema) => self.walk_object(schema, pointer, reachable),
            _ => Ok(()),
        }
    }

    fn walk_object(
        &mut self,
        schema: &Map<String, Value>,
        pointer: &str,
        reachable: Option<&mut Vec<String>>,
    ) -> Result<(), InvalidToolHeader> {
        let invalid = |reason| InvalidToolHeader {
            pointer: pointer.to_string(),
            reason,
        };
        let mut reachable = reachable;
        if let Some(annotation) = schema.get(X_MCP_HEADER) {
            match reachable.as_deref() {
                Some(path) if !path.is_empty() => {
                    let param = annotation_of(annotation, schema, path).map_err(invalid)?;
                    if let Some(other) = self
                        .params
                        .iter()
                        .find(|p| p.name.eq_ignore_ascii_case(&param.name))
                    {
                        return Err(invalid(InvalidReason::Duplicate(other.name.clone())));
                    }
                    self.params.push(param);
                }
                _ => return Err(invalid(InvalidReason::NotStaticallyReachable)),
            }
        }
        if let Some(Value::Object(properties)) = schema.get("properties") {
            for (name, property) in properties {
                let pointer = format!("{pointer}/properties/{}", escape_pointer(name));
                match reachable.as_deref_mut() {
                    Some(path) => {
                        path.push(name.clone());
                        let result = self.walk(property, &pointer, Some(path));
                        path.pop();
                        result?;
                    }
                    None => self.walk(property, &pointer, None)?,
                }
            }
        }
        for (keyword, value) in schema {
            let pointer = |suffix: &str| format!("{pointer}/{}{suffix}", escape_pointer(keyword));
            let keyword = keyword.as_str();
            if SUBSCHEMA.contains(&keyword) && value.is_object() {
                self.walk(value, &pointer(""), None)?;
            }
            if SUBSCHEMA_ARRAYS.contains(&keyword) {
                if let Value::Array(items) = value {
                    for (i, item) in items.iter().enumerate() {
                        self.walk(item, &pointer(&format!("/{i}")), None)?;
                    }
                }
            }
            if SUBSCHEMA_MAPS.contains(&keyword) {
                if let Value::Object(map) = value {
                    for (name, item) in map {
                        self.walk(item, &pointer(&format!("/{}", escape_pointer(name))), None)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The `Mcp-Param-*` headers of a call with these `arguments`, values encoded with
    /// [`encode_value`]; an argument that is absent or `null` sends no header.
    ///
    /// ```
    /// use mcp_spec_types::http_headers::ToolHeaders;
    /// use serde_json::json;
    ///
    /// let tool = ToolHeaders::from_input_schema(&json!({ "type": "object", "properties": {
    ///     "region": { "type": "string", "x-mcp-header": "Region" },
    ///     "priority": { "type": "integer", "x-mcp-header": "Priority" },
    ///     "verbose": { "type": "boolean", "x-mcp-header": "Verbose" } } })).unwrap();
    /// let headers = tool.headers(Some(&json!({ "region": "Hello, 世界", "priority": 42, "verbose": null }))).unwrap();
    /// assert_eq!(headers, [
    ///     ("Mcp-Param-Priority".to_string(), "42".to_string()),
    ///     ("Mcp-Param-Region".to_string(), "=?base64?SGVsbG8sIOS4lueVjA==?=".to_string()),
    /// ]);
    /// ```
    pub fn headers(
        &self,
        arguments: Option<&Value>,
    ) -> Result<Vec<(String, String)>, ParamValueError> {
        let mut headers = Vec::new();
        for param in &self.params {
            let Some(value) = param.value(arguments) else {
                continue;
            };
            let text = match (param.param_type, value) {
                (ParamType::String, Value::String(text)) => encode_value(text).into_owned(),
                (ParamType::Boolean, Value::Bool(flag)) => flag.to_string(),
                (ParamType::Integer, Value::Number(number)) => match safe_integer(number) {
                    Some(integer) => integer.to_string(),
                    None => return Err(param_value_error(param, value)),
                },
                _ => return Err(param_value_error(param, value)),
            };
            headers.push((param.header_name(), text));
        }
        Ok(headers)
    }

    /// Checks the received `Mcp-Param-*` headers of a `tools/call` against its `arguments`:
    /// each annotated argument that is present and not `null` needs its header, equal to it
    /// once [decoded](decode_value) (integers compare numerically); an argument that is absent
    /// or `null` must have no header. Headers of names the tool does not annotate are not
    /// looked at (the spec has them forwarded and ignored).
    pub fn check<'h>(
        &self,
        arguments: Option<&Value>,
        headers: impl Fn(&str) -> Option<&'h str>,
    ) -> Result<(), HeaderMismatch> {
        for param in &self.params {
            let header = param.header_name();
            compare_encoded(&header, param.value(arguments), headers(&header))?;
        }
        Ok(())
    }
}

fn param_value_error(param: &ParamHeader, value: &Value) -> ParamValueError {
    ParamValueError {
        header: param.header_name(),
        value: value.clone(),
        param_type: param.param_type,
    }
}

/// An integer within ±(2^53 − 1), written either way JSON allows (`42` or `42.0`).
fn safe_integer(number: &serde_json::Number) -> Option<i64> {
    let integer = match number.as_i64() {
        Some(integer) => integer,
        None => {
            let float = number.as_f64()?;
            // `% 1.0` is `fract()`, which `core` lacks.
            if float % 1.0 != 0.0 || float.abs() > MAX_SAFE_INTEGER as f64 {
                return None;
            }
            float as i64
        }
    };
    (integer.abs() <= MAX_SAFE_INTEGER).then_some(integer)
}

/// One annotation on a property at `path`, checked by itself (uniqueness is the caller's).
fn annotation_of(
    annotation: &Value,
    property: &Map<String, Value>,
    path: &[String],
) -> Result<ParamHeader, InvalidReason> {
    let Value::String(name) = annotation else {
        return Err(InvalidReason::NotAString);
    };
    if name.is_empty() {
        return Err(InvalidReason::Empty);
    }
    if let Some(c) = name.chars().find(|&c| !is_tchar(c)) {
        return Err(InvalidReason::InvalidCharacter(c));
    }
    let ty = property.get("type");
    let not_primitive = || InvalidReason::NotPrimitive(ty.cloned().unwrap_or(Value::Null));
    let primitive = |name: &str| match name {
        "string" => Some(ParamType::String),
        "integer" => Some(ParamType::Integer),
        "boolean" => Some(ParamType::Boolean),
        _ => None,
    };
    let param_type = match ty {
        Some(Value::String(name)) => primitive(name).ok_or_else(not_primitive)?,
        // A nullable parameter (`["string", "null"]`) is still one of the three: its `null`
        // is the "value is null" case, whose header is omitted.
        Some(Value::Array(names)) => {
            let mut types = names.iter().filter(|n| n.as_str() != Some("null"));
            match (
                types.next().and_then(Value::as_str).and_then(primitive),
                types.next(),
            ) {
                (Some(param_type), None) => param_type,
                _ => return Err(not_primitive()),
            }
        }
        _ => return Err(not_primitive()),
    };
    Ok(ParamHeader {
        name: name.clone(),
        path: path.to_vec(),
        param_type,
    })
}

/// RFC 9110 §5.6.2 `tchar`: the characters of an HTTP token such as a field name.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// A name as a JSON pointer segment (RFC 6901).
fn escape_pointer(name: &str) -> Cow<'_, str> {
    if name.contains(['~', '/']) {
        Cow::Owned(name.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(name)
    }
}

//! Form elicitation schemas for revision 2025-11-25: the flat, restricted JSON Schema an
//! `elicitation/create` request in form mode carries, built property by property.
//!
//! Every property kind of the revision has a constructor: [`string`], [`integer`], [`number`],
//! [`boolean`], and the enum kinds of SEP-1330 ([`single_select`], [`titled_single_select`],
//! [`legacy_titled_select`], [`multi_select`], [`titled_multi_select`]). [`Property`] adds a
//! description or title to any of them, and each schema's generated `with_default` the default
//! value of SEP-1034 (a number's takes any integer or float).
//!
//! ```
//! use mcp_spec_types::elicitation::{boolean, integer, single_select, string, FormSchema, Property};
//! use mcp_spec_types::v2025_11_25::ElicitRequestParams;
//!
//! let params = FormSchema::new()
//!     .required("name", string().describe("User name").with_default("John Doe"))
//!     .property("age", integer().describe("User age").with_default(30))
//!     .property("status", single_select(["active", "inactive"]).with_default("active"))
//!     .property("verified", boolean().with_default(true))
//!     .request("Please confirm your details");
//! let json = serde_json::to_value(&params).unwrap();
//! assert_eq!(json["mode"], "form");
//! assert_eq!(json["requestedSchema"]["properties"]["age"]["type"], "integer");
//! assert_eq!(json["requestedSchema"]["properties"]["age"]["default"], 30);
//! assert_eq!(json["requestedSchema"]["required"][0], "name");
//! assert!(matches!(params, ElicitRequestParams::FormParams(_)));
//! ```

use crate::prelude::*;
use crate::v2025_11_25::{
    BooleanSchema, ElicitRequestFormParams, ElicitRequestFormParamsRequestedSchema,
    ElicitRequestParams, LegacyTitledEnumSchema, NumberSchema, NumberSchemaType,
    PrimitiveSchemaDefinition, StringSchema, TitledMultiSelectEnumSchema,
    TitledMultiSelectEnumSchemaItems, TitledMultiSelectEnumSchemaItemsAnyOfItem,
    TitledSingleSelectEnumSchema, TitledSingleSelectEnumSchemaOneOfItem,
    UntitledMultiSelectEnumSchema, UntitledMultiSelectEnumSchemaItems,
    UntitledSingleSelectEnumSchema,
};
use alloc::collections::BTreeMap;
use serde_json::Map;

/// The requested schema of a form elicitation, built one property at a time.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FormSchema {
    properties: BTreeMap<String, PrimitiveSchemaDefinition>,
    required: Vec<String>,
}

impl FormSchema {
    /// A schema with no properties.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an optional property.
    #[must_use]
    pub fn property(
        mut self,
        name: impl Into<String>,
        schema: impl Into<PrimitiveSchemaDefinition>,
    ) -> Self {
        self.properties.insert(name.into(), schema.into());
        self
    }

    /// Adds a property the user must fill in (listed in `required`).
    #[must_use]
    pub fn required(
        mut self,
        name: impl Into<String>,
        schema: impl Into<PrimitiveSchemaDefinition>,
    ) -> Self {
        let name = name.into();
        if !self.required.contains(&name) {
            self.required.push(name.clone());
        }
        self.property(name, schema)
    }

    /// The `requestedSchema` member (`{"type": "object", "properties": ..., "required": ...}`;
    /// `required` is written even when empty).
    pub fn build(self) -> ElicitRequestFormParamsRequestedSchema {
        ElicitRequestFormParamsRequestedSchema {
            properties: self.properties,
            required: Some(self.required),
            schema: None,
            extra: Map::new(),
        }
    }

    /// The params of a form-mode `elicitation/create` request showing `message`.
    pub fn request(self, message: impl Into<String>) -> ElicitRequestParams {
        ElicitRequestParams::FormParams(ElicitRequestFormParams {
            message: message.into(),
            meta: None,
            mode: Some("form".to_owned()),
            requested_schema: self.build(),
            task: None,
            extra: Map::new(),
        })
    }
}

/// A string property.
pub fn string() -> StringSchema {
    StringSchema {
        default: None,
        description: None,
        format: None,
        max_length: None,
        min_length: None,
        title: None,
        extra: Map::new(),
    }
}

fn numeric(type_: NumberSchemaType) -> NumberSchema {
    NumberSchema {
        default: None,
        description: None,
        maximum: None,
        minimum: None,
        title: None,
        type_,
        extra: Map::new(),
    }
}

/// An integer property (`{"type": "integer"}`).
pub fn integer() -> NumberSchema {
    numeric(NumberSchemaType::Integer)
}

/// A number property (`{"type": "number"}`).
pub fn number() -> NumberSchema {
    numeric(NumberSchemaType::Number)
}

/// A boolean property.
pub fn boolean() -> BooleanSchema {
    BooleanSchema {
        default: None,
        description: None,
        title: None,
        extra: Map::new(),
    }
}

fn strings<I: IntoIterator<Item = S>, S: Into<String>>(values: I) -> Vec<String> {
    values.into_iter().map(Into::into).collect()
}

/// A single choice among `values`, shown as they are (`{"type": "string", "enum": [...]}`).
pub fn single_select<I: IntoIterator<Item = S>, S: Into<String>>(
    values: I,
) -> UntitledSingleSelectEnumSchema {
    UntitledSingleSelectEnumSchema {
        default: None,
        description: None,
        enum_: strings(values),
        title: None,
        extra: Map::new(),
    }
}

/// A single choice among `(value, title)` pairs (`{"type": "string", "oneOf": [{"const",
/// "title"}, ...]}`).
pub fn titled_single_select<I, V, T>(choices: I) -> TitledSingleSelectEnumSchema
where
    I: IntoIterator<Item = (V, T)>,
    V: Into<String>,
    T: Into<String>,
{
    TitledSingleSelectEnumSchema {
        default: None,
        description: None,
        one_of: choices
            .into_iter()
            .map(|(value, title)| TitledSingleSelectEnumSchemaOneOfItem {
                const_: value.into(),
                title: title.into(),
                extra: Map::new(),
            })
            .collect(),
        title: None,
        extra: Map::new(),
    }
}

/// A single choice with display names in the deprecated `enumNames` form (`{"type":
/// "string", "enum": [...], "enumNames": [...]}`); `names` should be as long as `values`.
pub fn legacy_titled_select<I, J, S, N>(values: I, names: J) -> LegacyTitledEnumSchema
where
    I: IntoIterator<Item = S>,
    J: IntoIterator<Item = N>,
    S: Into<String>,
    N: Into<String>,
{
    LegacyTitledEnumSchema {
        default: None,
        description: None,
        enum_: strings(values),
        enum_names: Some(strings(names)),
        title: None,
        extra: Map::new(),
    }
}

/// Several choices among `values` (`{"type": "array", "items": {"type": "string", "enum":
/// [...]}}`), between `min` and `max` of them when given.
pub fn multi_select<I: IntoIterator<Item = S>, S: Into<String>>(
    values: I,
    min: Option<i64>,
    max: Option<i64>,
) -> UntitledMultiSelectEnumSchema {
    UntitledMultiSelectEnumSchema {
        default: None,
        description: None,
        items: UntitledMultiSelectEnumSchemaItems {
            enum_: strings(values),
            extra: Map::new(),
        },
        max_items: max,
        min_items: min,
        title: None,
        extra: Map::new(),
    }
}

/// Several choices among `(value, title)` pairs (`{"type": "array", "items": {"anyOf":
/// [{"const", "title"}, ...]}}`), between `min` and `max` of them when given.
pub fn titled_multi_select<I, V, T>(
    choices: I,
    min: Option<i64>,
    max: Option<i64>,
) -> TitledMultiSelectEnumSchema
where
    I: IntoIterator<Item = (V, T)>,
    V: Into<String>,
    T: Into<String>,
{
    TitledMultiSelectEnumSchema {
        default: None,
        description: None,
        items: TitledMultiSelectEnumSchemaItems {
            any_of: choices
                .into_iter()
                .map(|(value, title)| TitledMultiSelectEnumSchemaItemsAnyOfItem {
                    const_: value.into(),
                    title: title.into(),
                    extra: Map::new(),
                })
                .collect(),
            extra: Map::new(),
        },
        max_items: max,
        min_items: min,
        title: None,
        extra: Map::new(),
    }
}

/// The members every property kind has: a description and a title.
pub trait Property: Sized {
    /// Sets `description`.
    #[must_use]
    fn describe(self, description: impl Into<String>) -> Self;
    /// Sets `title`.
    #[must_use]
    fn titled(self, title: impl Into<String>) -> Self;
}

macro_rules! property {
    ($($ty:ty),*) => {$(
        impl Property for $ty {
            fn describe(mut self, description: impl Into<String>) -> Self {
                self.description = Some(description.into());
                self
            }
            fn titled(mut self, title: impl Into<String>) -> Self {
                self.title = Some(title.into());
                self
            }
        }
    )*};
}

property!(
    StringSchema,
    NumberSchema,
    BooleanSchema,
    UntitledSingleSelectEnumSchema,
    TitledSingleSelectEnumSchema,
    LegacyTitledEnumSchema,
    UntitledMultiSelectEnumSchema,
    TitledMultiSelectEnumSchema
);

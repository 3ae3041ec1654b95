//! Renders `protocol/src/actions/<tool>.rs`: one typed params struct per action of a tool,
//! its enums, its common params, and the wire structs the typed ones convert through.
//!
//! What the table says is what the struct says: a required param or one with a default is a
//! plain field (the default applied when absent, and left out on the wire when equal to it),
//! an optional one without a default is an `Option`, an enum param is an enum, and the
//! action's locator is one field (`target`, `element`/`ref` or `point`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::{bail, ensure};
use glovebox_protocol::contract::{Action, DefaultValue, Locator, Param, Tool, Ty};

use super::{action_doc, comment_lines, doc_lines, field_name, param_doc, pascal};

/// How a tool names elements and points, read from its table.
struct Shape {
    /// `selector` besides `ref`: elements are [`Element`]s, else a ref `String`.
    selectors: bool,
    /// The pixel type of `x`, `y`.
    pixel: &'static str,
}

impl Shape {
    fn of(tool: &Tool) -> anyhow::Result<Shape> {
        let keys = tool.element_key_names();
        let selectors = match keys.as_slice() {
            [] | ["ref"] => false,
            ["ref", "selector"] => true,
            other => bail!("{}: element keys {other:?} have no typed form", tool.name),
        };
        let pixel = match tool.point_keys.first().map(|p| p.ty) {
            None => "f64",
            Some(ty) => scalar(ty),
        };
        Ok(Shape { selectors, pixel })
    }

    fn element_ty(&self) -> &'static str {
        if self.selectors {
            "Element"
        } else {
            "String"
        }
    }
}

/// The typed locator field of an action: `(name, type, required)`.
fn locator_field(shape: &Shape, locator: Locator) -> Option<(&'static str, &'static str, bool)> {
    let element = if shape.selectors { "element" } else { "r#ref" };
    match locator {
        Locator::None => None,
        Locator::Element => Some((element, shape.element_ty(), true)),
        Locator::ElementOptional => Some((element, shape.element_ty(), false)),
        Locator::ElementOrPoint => Some(("target", "Target", true)),
        Locator::AnyOptional => Some(("target", "Target", false)),
        Locator::Point => Some(("point", "Point", true)),
        Locator::PointOptional => Some(("point", "Point", false)),
    }
}

fn scalar(ty: Ty) -> &'static str {
    match ty {
        Ty::Int { min, max } if min >= 0 && max <= i64::from(u32::MAX) => "u32",
        Ty::Int { .. } => "i64",
        Ty::Num { .. } => "f64",
        _ => "String",
    }
}

fn rust_type(param: &Param) -> String {
    match param.ty {
        Ty::Str { .. } | Ty::Url | Ty::Id(_) => "String".into(),
        Ty::Int { .. } | Ty::Num { .. } => scalar(param.ty).into(),
        Ty::Bool => "bool".into(),
        Ty::Enum(_) => pascal(param.name),
        Ty::StrList => "Vec<String>".into(),
        Ty::Region => "Region".into(),
        Ty::Object => "serde_json::Map<String, serde_json::Value>".into(),
        Ty::ObjectList => "Vec<serde_json::Map<String, serde_json::Value>>".into(),
    }
}

/// The Rust expression of a param's default.
fn default_expr(param: &Param, default: DefaultValue) -> anyhow::Result<String> {
    Ok(match (param.ty, default) {
        (Ty::Enum(values), DefaultValue::Str(v)) => {
            ensure!(values.contains(&v), "{}: default {v} is not one of its values", param.name);
            format!("{}::{}", pascal(param.name), pascal(v))
        }
        (_, DefaultValue::Str(v)) => format!("{v:?}.to_owned()"),
        (_, DefaultValue::Int(v)) => v.to_string(),
        (_, DefaultValue::Num(v)) => format!("{v:?}"),
        (_, DefaultValue::Bool(v)) => v.to_string(),
    })
}

/// How a param sits in its struct.
enum Kind {
    Required,
    Defaulted(String),
    Optional,
}

fn kind(action: &Action, param: &Param) -> anyhow::Result<Kind> {
    if action.required.iter().any(|p| p.name == param.name) {
        return Ok(Kind::Required);
    }
    Ok(match param.default {
        Some(d) => Kind::Defaulted(default_expr(param, d)?),
        None => Kind::Optional,
    })
}

/// The own params of an action: besides the locator keys and the tool's common ones.
fn own(tool: &Tool, action: &Action) -> anyhow::Result<Vec<&'static Param>> {
    let common: Vec<&str> = tool.common.iter().map(|p| p.name).collect();
    let reserved = ["target", "element", "point", "common"];
    let mut out = Vec::new();
    for p in action.own_params() {
        ensure!(
            !common.contains(&p.name),
            "{}: {} is also a common param",
            tool.method(action),
            p.name
        );
        ensure!(
            !reserved.contains(&p.name),
            "{}: {} names a typed field",
            tool.method(action),
            p.name
        );
        let locator_key = (action.locator.takes_element()
            && tool.element_keys.iter().any(|k| k.name == p.name))
            || (action.locator.takes_point() && tool.point_keys.iter().any(|k| k.name == p.name));
        ensure!(!locator_key, "{}: {} is also a locator key", tool.method(action), p.name);
        out.push(p);
    }
    Ok(out)
}

/// Every enum the tool's params use, by type name (one set of values per name).
fn enums(tool: &Tool) -> anyhow::Result<BTreeMap<String, &'static [&'static str]>> {
    let mut out: BTreeMap<String, &'static [&'static str]> = BTreeMap::new();
    for action in tool.actions {
        for p in tool.accepted(action) {
            if let Ty::Enum(values) = p.ty {
                let name = pascal(p.name);
                if let Some(have) = out.insert(name.clone(), values) {
                    ensure!(have == values, "{}: enum {name} has two sets of values", tool.name);
                }
            }
        }
    }
    Ok(out)
}

/// The generated module of one tool, before rustfmt.
pub fn render(tool: &Tool) -> anyhow::Result<String> {
    let shape = Shape::of(tool)?;
    let mut out = comment_lines(
        "//!",
        "",
        &format!(
            "Typed params of the `{}` tool's actions, generated from the contract table \
             (`protocol/src/contract/{}.rs`) by `cargo xtask codegen`; do not edit.",
            tool.name, tool.name
        ),
    );
    out.push_str("\n//!\n");
    out.push_str(&comment_lines("//!", "", tool.description));
    out.push_str(
        "\n\n// The contract's docs quote URLs as examples, not as links.\n\
         #![allow(rustdoc::bare_urls)]\n\n\
         use serde::{Deserialize, Serialize};\n\n\
         #[allow(unused_imports)]\n\
         use super::{keys, Element, Missing, Params, Region};\n",
    );
    let mut names: Vec<String> = Vec::new();
    if !tool.point_keys.is_empty() {
        let (el, px) = (shape.element_ty(), shape.pixel);
        let _ = write!(
            out,
            "\n/// A point of this tool: `x,y` ({px}) or `nx,ny`.\n\
             pub type Point = super::Point<{px}>;\n\n\
             /// An element ({el}) or a point.\n\
             pub type Target = super::Target<{el}, {px}>;\n"
        );
        names.extend(["Point".into(), "Target".into()]);
    }
    for (name, values) in enums(tool)? {
        render_enum(&mut out, &name, values)?;
        names.push(name);
    }
    if !tool.common.is_empty() {
        render_common(&mut out, tool);
        names.extend(["Common".into(), "Shared".into()]);
    }
    let mut wire = String::new();
    for action in tool.actions {
        let name = pascal(action.name);
        ensure!(!names.contains(&name), "{}: type {name} is defined twice", tool.name);
        names.push(name);
        render_action(&mut out, &mut wire, tool, &shape, action)?;
    }
    let by_action = |doc: &str, ty: &str, entry: &dyn Fn(&str) -> String| {
        let mut t = format!("\n/// {doc}\npub static {ty} = &[\n");
        for action in tool.actions {
            let _ = writeln!(t, "    (\"{}\", {}),", action.name, entry(&pascal(action.name)));
        }
        t.push_str("];\n");
        t
    };
    out.push_str(&by_action(
        "Every action's params struct by action name, read from a checked call and written back \
         (for the tests).",
        "ROUND_TRIPS: &[(&str, super::RoundTrip)]",
        &|name| format!("super::round_trip::<{name}>"),
    ));
    out.push_str(&by_action(
        &format!("Every action's result schema by action name (`crate::results::{}`).", tool.name),
        "RESULT_SCHEMAS: &[(&str, super::ResultSchema)]",
        &|name| format!("<{name} as Params>::result_schema"),
    ));
    let _ = write!(
        out,
        "\n/// The flat JSON shape of each action's params, as the wire has it: what the typed \
         structs serialize to and deserialize from.\n#[doc(hidden)]\npub mod wire {{\n    \
         use serde::{{Deserialize, Serialize}};\n\n    #[allow(unused_imports)]\n    \
         use super::super::{{keys, Element, Missing, Region}};\n    #[allow(unused_imports)]\n    \
         use super::*;\n{wire}}}\n"
    );
    Ok(out)
}

fn render_enum(out: &mut String, name: &str, values: &[&str]) -> anyhow::Result<()> {
    let list: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
    let _ = writeln!(out, "\n/// One of {}.", list.join(", "));
    out.push_str("#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]\n");
    let _ = writeln!(out, "pub enum {name} {{");
    for v in values {
        ensure!(
            v.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
            "{name}: value {v:?}"
        );
        let _ = writeln!(out, "    #[serde(rename = \"{v}\")]\n    {},", pascal(v));
    }
    out.push_str("}\n\n");
    let _ = writeln!(out, "impl {name} {{\n    /// The word the wire carries.\n    pub fn as_str(self) -> &'static str {{\n        match self {{");
    for v in values {
        let _ = writeln!(out, "            {name}::{} => \"{v}\",", pascal(v));
    }
    out.push_str("        }\n    }\n}\n");
    Ok(())
}

fn render_common(out: &mut String, tool: &Tool) {
    let names: Vec<String> = tool.common.iter().map(|p| format!("`{}`", p.name)).collect();
    let _ = writeln!(
        out,
        "\n/// What every `{}` action takes besides its own params: {}.",
        tool.name,
        names.join(", ")
    );
    out.push_str("#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]\n");
    out.push_str("pub struct Common {\n");
    for p in tool.common {
        let _ = writeln!(out, "{}", doc_lines("    ", &param_doc(p, false)));
        let _ = writeln!(out, "    #[serde(skip_serializing_if = \"Option::is_none\")]");
        let _ = writeln!(out, "    pub {}: Option<{}>,", field_name(p.name), rust_type(p));
    }
    out.push_str("}\n");
    let _ = write!(
        out,
        "\n/// What the daemon reads of any `{}` action's params before its handler runs.\n\
         pub trait Shared {{\n    fn common(&self) -> &Common;\n    \
         /// The ref the action's locator names, if it names one.\n    \
         fn named_ref(&self) -> Option<&str>;\n}}\n",
        tool.name
    );
}

fn render_action(
    out: &mut String,
    wire: &mut String,
    tool: &Tool,
    shape: &Shape,
    action: &Action,
) -> anyhow::Result<()> {
    let name = pascal(action.name);
    let own = own(tool, action)?;
    let locator = locator_field(shape, action.locator);
    let common = !tool.common.is_empty();
    let mut kinds = Vec::new();
    for p in &own {
        kinds.push(kind(action, p)?);
    }

    // The typed struct.
    let _ = writeln!(out, "\n{}", doc_lines("", &action_doc(tool, action)));
    out.push_str("#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]\n");
    let _ = writeln!(out, "#[serde(try_from = \"wire::{name}\", into = \"wire::{name}\")]");
    let _ = writeln!(out, "pub struct {name} {{");
    if let Some((field, ty, required)) = locator {
        let words = action.locator.describe(&tool.element_key_names()).unwrap_or_default();
        let _ = writeln!(out, "{}", doc_lines("    ", &format!("{}.", upper_first(&words))));
        let ty = if required { ty.to_owned() } else { format!("Option<{ty}>") };
        let _ = writeln!(out, "    pub {field}: {ty},");
    }
    for (p, k) in own.iter().zip(&kinds) {
        let _ = writeln!(out, "{}", doc_lines("    ", &param_doc(p, matches!(k, Kind::Required))));
        let ty = rust_type(p);
        let ty = if matches!(k, Kind::Optional) { format!("Option<{ty}>") } else { ty };
        let _ = writeln!(out, "    pub {}: {ty},", field_name(p.name));
    }
    if common {
        out.push_str(
            "    /// The params every action of the tool takes.\n    pub common: Common,\n",
        );
    }
    out.push_str("}\n");

    // Construction with the table's defaults.
    let mut args: Vec<String> = Vec::new();
    let mut inits: Vec<String> = Vec::new();
    if let Some((field, ty, required)) = locator {
        let arg = if field == "r#ref" { "element" } else { field };
        if required {
            args.push(format!("{arg}: impl Into<{ty}>"));
            inits.push(format!("{field}: {arg}.into()"));
        } else {
            inits.push(format!("{field}: None"));
        }
    }
    for (p, k) in own.iter().zip(&kinds) {
        let field = field_name(p.name);
        match k {
            Kind::Required if rust_type(p) == "String" => {
                args.push(format!("{field}: impl Into<String>"));
                inits.push(format!("{field}: {field}.into()"));
            }
            Kind::Required => {
                args.push(format!("{field}: {}", rust_type(p)));
                inits.push(field.clone());
            }
            Kind::Defaulted(d) => inits.push(format!("{field}: {d}")),
            Kind::Optional => inits.push(format!("{field}: None")),
        }
    }
    if common {
        inits.push("common: Common::default()".into());
    }
    let body = format!("{name} {{ {} }}", inits.join(", "));
    if args.is_empty() {
        let _ = writeln!(
            out,
            "\nimpl Default for {name} {{\n    /// Every param at the table's default.\n    \
             fn default() -> Self {{\n        {body}\n    }}\n}}"
        );
    } else {
        let _ = writeln!(
            out,
            "\nimpl {name} {{\n    /// The required params; every other one at the table's default.\n    \
             pub fn new({}) -> Self {{\n        {body}\n    }}\n}}",
            args.join(", ")
        );
    }
    let _ = writeln!(
        out,
        "\nimpl Params for {name} {{\n    const TOOL: &'static str = \"{}\";\n    \
         const ACTION: &'static str = \"{}\";\n    \
         type Result = crate::results::{}::{name};\n}}",
        tool.name, action.name, tool.name
    );
    if common {
        let el =
            if shape.selectors { ".and_then(Element::as_ref_str)" } else { ".map(String::as_str)" };
        let named = match locator {
            None | Some(("point", _, _)) => "None".to_owned(),
            Some(("target", _, true)) => format!("self.target.element(){el}"),
            Some(("target", _, false)) => {
                format!("self.target.as_ref().and_then(|t| t.element()){el}")
            }
            Some((f, _, true)) if shape.selectors => format!("self.{f}.as_ref_str()"),
            Some((f, _, true)) => format!("Some(self.{f}.as_str())"),
            Some((f, _, false)) if shape.selectors => {
                format!("self.{f}.as_ref().and_then(Element::as_ref_str)")
            }
            Some((f, _, false)) => format!("self.{f}.as_deref()"),
        };
        let _ = writeln!(
            out,
            "\nimpl Shared for {name} {{\n    fn common(&self) -> &Common {{\n        &self.common\n    }}\n\n    \
             fn named_ref(&self) -> Option<&str> {{\n        {named}\n    }}\n}}"
        );
    }
    render_wire(wire, tool, shape, action, &own, &kinds, locator);
    Ok(())
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

fn render_wire(
    wire: &mut String,
    tool: &Tool,
    shape: &Shape,
    action: &Action,
    own: &[&'static Param],
    kinds: &[Kind],
    locator: Option<(&'static str, &'static str, bool)>,
) {
    let name = pascal(action.name);
    let common = !tool.common.is_empty();
    // The flat keys: own params, then the locator's.
    let mut keys: Vec<(String, String)> =
        own.iter().map(|p| (field_name(p.name), rust_type(p))).collect();
    let (takes_el, takes_pt) = (action.locator.takes_element(), action.locator.takes_point());
    if takes_el {
        keys.push(("r#ref".into(), "String".into()));
        if shape.selectors {
            keys.push(("selector".into(), "String".into()));
        }
    }
    if takes_pt {
        for k in ["x", "y"] {
            keys.push((k.into(), shape.pixel.into()));
        }
        for k in ["nx", "ny"] {
            keys.push((k.into(), "f64".into()));
        }
    }
    let _ = writeln!(
        wire,
        "\n    #[derive(Serialize, Deserialize, Default)]\n    pub struct {name} {{"
    );
    for (k, ty) in &keys {
        let _ = writeln!(
            wire,
            "        #[serde(skip_serializing_if = \"Option::is_none\")]\n        pub {k}: Option<{ty}>,"
        );
    }
    if common {
        wire.push_str("        #[serde(flatten)]\n        pub common: Common,\n");
    }
    wire.push_str("    }\n");

    // Typed -> wire: the locator split into its keys, defaults left out.
    let mut lets = String::new();
    if let Some((field, _, required)) = locator {
        let v = if required { format!("Some(v.{field})") } else { format!("v.{field}") };
        let split_el = |lets: &mut String, from: &str| {
            if shape.selectors {
                let _ = writeln!(lets, "let (r#ref, selector) = keys::split_element({from});");
            } else {
                let _ = writeln!(lets, "let r#ref = {from};");
            }
        };
        match field {
            "target" => {
                let _ = writeln!(lets, "let (element, point) = keys::split_target({v});");
                split_el(&mut lets, "element");
                lets.push_str("let (x, y, nx, ny) = keys::split_point(point);\n");
            }
            "point" => {
                let _ = writeln!(lets, "let (x, y, nx, ny) = keys::split_point({v});");
            }
            _ => split_el(&mut lets, &v),
        }
    }
    let mut fields: Vec<String> = Vec::new();
    for (p, k) in own.iter().zip(kinds) {
        let f = field_name(p.name);
        fields.push(match k {
            Kind::Required => format!("{f}: Some(v.{f})"),
            Kind::Defaulted(d) if d == "true" => format!("{f}: (!v.{f}).then_some(false)"),
            Kind::Defaulted(d) if d == "false" => format!("{f}: v.{f}.then_some(true)"),
            Kind::Defaulted(d) => {
                format!("{f}: (v.{f} != {}).then_some(v.{f})", d.trim_end_matches(".to_owned()"))
            }
            Kind::Optional => format!("{f}: v.{f}"),
        });
    }
    if takes_el {
        fields.push("r#ref".into());
        if shape.selectors {
            fields.push("selector".into());
        }
    }
    if takes_pt {
        fields.extend(["x", "y", "nx", "ny"].map(String::from));
    }
    if common {
        fields.push("common: v.common".into());
    }
    let v = if fields.is_empty() { "_" } else { "v" };
    let _ = writeln!(
        wire,
        "\n    impl From<super::{name}> for {name} {{\n        fn from({v}: super::{name}) -> Self {{\n{lets}{name} {{ {} }}\n        }}\n    }}",
        fields.join(", ")
    );

    // Wire -> typed: the table's defaults applied.
    let mut lets = String::new();
    let mut fields: Vec<String> = Vec::new();
    if let Some((field, _, required)) = locator {
        let el = if shape.selectors { "keys::element(w.r#ref, w.selector)" } else { "w.r#ref" };
        let expr = match field {
            "target" => {
                let _ = writeln!(lets, "let element = {el};");
                lets.push_str("let point = keys::point(w.x, w.y, w.nx, w.ny);\n");
                "keys::target(element, point)".to_owned()
            }
            "point" => "keys::point(w.x, w.y, w.nx, w.ny)".to_owned(),
            _ => el.to_owned(),
        };
        let what = action.locator.describe(&tool.element_key_names()).unwrap_or_default();
        let expr = if required { format!("{expr}.ok_or(Missing({what:?}))?") } else { expr };
        fields.push(format!("{field}: {expr}"));
    }
    for (p, k) in own.iter().zip(kinds) {
        let f = field_name(p.name);
        fields.push(match k {
            Kind::Required => format!("{f}: w.{f}.ok_or(Missing({:?}))?", p.name),
            Kind::Defaulted(d) if d.ends_with(".to_owned()") => {
                format!("{f}: w.{f}.unwrap_or_else(|| {d})")
            }
            Kind::Defaulted(d) => format!("{f}: w.{f}.unwrap_or({d})"),
            Kind::Optional => format!("{f}: w.{f}"),
        });
    }
    if common {
        fields.push("common: w.common".into());
    }
    let w = if fields.is_empty() { "_" } else { "w" };
    let _ = writeln!(
        wire,
        "\n    impl TryFrom<{name}> for super::{name} {{\n        type Error = Missing;\n\n        \
         fn try_from({w}: {name}) -> Result<Self, Missing> {{\n{lets}Ok(super::{name} {{ {} }})\n        }}\n    }}",
        fields.join(", ")
    );
}

//! Typed params of every contract action, generated from the table into `actions/context.rs`,
//! `actions/browser.rs` and `actions/computer.rs` (`cargo xtask codegen`), and what those
//! files stand on: the [`Params`] trait, the locators and [`Region`].
//!
//! One struct per action (`browser::Click` for `browser.click`): required params and params
//! with a default are plain fields (the table's default applied when absent), optional ones
//! without a default are `Option`, enum params are enums, and the locator an action takes is
//! one typed field (`target`, `element` or `point`). The daemon deserializes a call into its
//! struct once, after the validator passed it; the client SDK serializes the same structs,
//! leaving out params equal to their default, so the wire carries what it always carried.

use std::fmt;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub mod browser;
pub mod computer;
pub mod context;
pub mod native;

/// The params of one contract action; every generated struct implements it.
pub trait Params:
    Serialize + DeserializeOwned + Clone + fmt::Debug + Send + Sync + 'static
{
    /// The tool, e.g. `browser`.
    const TOOL: &'static str;
    /// The action, e.g. `click`; the direct method is `TOOL.ACTION`.
    const ACTION: &'static str;
    /// What the action answers in an outcome's `result` (`crate::results`, same name).
    type Result: Serialize + DeserializeOwned + JsonSchema + Clone + fmt::Debug + Send + 'static;

    /// The JSON Schema of [`Params::Result`], whole (no `$ref`s), so it can be embedded.
    fn result_schema() -> schemars::Schema {
        crate::results::generator().into_root_schema_for::<Self::Result>()
    }
}

/// A screen rectangle in pixels (`Ty::Region` in the contract).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Region {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

/// An element a browser call names: a ref from a snapshot, or a CSS selector. (A computer
/// call names an element by its ref alone, a `String`.)
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Element {
    /// `ref`: eN from the latest snapshot (or `snapshot_id`'s).
    Ref(String),
    /// `selector`: the first match of a CSS selector.
    Selector(String),
}

impl Element {
    /// The ref, when the element is named by one.
    pub fn as_ref_str(&self) -> Option<&str> {
        match self {
            Element::Ref(r) => Some(r),
            Element::Selector(_) => None,
        }
    }
}

/// A point: `x,y` in the tool's pixels (`N`: CSS pixels `f64` in the browser, screen pixels
/// `u32` on the desktop), or `nx,ny` fractions 0..1 of the viewport or screen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Point<N> {
    Pixels { x: N, y: N },
    Fraction { nx: f64, ny: f64 },
}

/// What an action taking an element or a point acts on. `E` is the tool's element
/// ([`Element`] in the browser, the ref `String` on the desktop).
#[derive(Debug, Clone, PartialEq)]
pub enum Target<E, N> {
    Element(E),
    Point(Point<N>),
}

impl<E, N> Target<E, N> {
    pub fn element(&self) -> Option<&E> {
        match self {
            Target::Element(e) => Some(e),
            Target::Point(_) => None,
        }
    }

    pub fn point(&self) -> Option<&Point<N>> {
        match self {
            Target::Element(_) => None,
            Target::Point(p) => Some(p),
        }
    }
}

impl<N> From<Element> for Target<Element, N> {
    fn from(e: Element) -> Self {
        Target::Element(e)
    }
}

impl<E, N> From<Point<N>> for Target<E, N> {
    fn from(p: Point<N>) -> Self {
        Target::Point(p)
    }
}

/// A call's JSON lacked what its struct requires: the validator refuses such a call first,
/// so this names a contract the table and the generated code disagree on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing(pub &'static str);

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is missing", self.0)
    }
}

impl std::error::Error for Missing {}

/// The pieces the generated wire structs convert with: the flat keys of a locator to its
/// typed form and back.
#[doc(hidden)]
pub mod keys {
    use super::{Element, Point, Target};

    pub fn element(r: Option<String>, selector: Option<String>) -> Option<Element> {
        r.map(Element::Ref).or(selector.map(Element::Selector))
    }

    pub fn split_element(e: Option<Element>) -> (Option<String>, Option<String>) {
        match e {
            Some(Element::Ref(r)) => (Some(r), None),
            Some(Element::Selector(s)) => (None, Some(s)),
            None => (None, None),
        }
    }

    pub fn point<N>(
        x: Option<N>,
        y: Option<N>,
        nx: Option<f64>,
        ny: Option<f64>,
    ) -> Option<Point<N>> {
        match (x, y, nx, ny) {
            (Some(x), Some(y), _, _) => Some(Point::Pixels { x, y }),
            (_, _, Some(nx), Some(ny)) => Some(Point::Fraction { nx, ny }),
            _ => None,
        }
    }

    /// `(x, y, nx, ny)`.
    #[allow(clippy::type_complexity)]
    pub fn split_point<N>(p: Option<Point<N>>) -> (Option<N>, Option<N>, Option<f64>, Option<f64>) {
        match p {
            Some(Point::Pixels { x, y }) => (Some(x), Some(y), None, None),
            Some(Point::Fraction { nx, ny }) => (None, None, Some(nx), Some(ny)),
            None => (None, None, None, None),
        }
    }

    pub fn target<E, N>(e: Option<E>, p: Option<Point<N>>) -> Option<Target<E, N>> {
        e.map(Target::Element).or(p.map(Target::Point))
    }

    pub fn split_target<E, N>(t: Option<Target<E, N>>) -> (Option<E>, Option<Point<N>>) {
        match t {
            Some(Target::Element(e)) => (Some(e), None),
            Some(Target::Point(p)) => (None, Some(p)),
            None => (None, None),
        }
    }
}

/// Why a checked call did not deserialize into a params struct: it is another action's, or
/// the generated struct and the table disagree (a bug the unit tests catch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamsError(pub String);

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParamsError {}

impl crate::contract::Checked {
    /// The call's params as `P`, the action's struct: its arguments (defaults filled in,
    /// URLs and whole numbers canonical) deserialized once.
    pub fn params<P: Params>(&self) -> Result<P, ParamsError> {
        let (tool, action) = (self.tool.name, self.action.name);
        if (P::TOOL, P::ACTION) != (tool, action) {
            return Err(ParamsError(format!("{tool}.{action} is not {}.{}", P::TOOL, P::ACTION)));
        }
        serde_json::from_value(serde_json::Value::Object(self.args.clone()))
            .map_err(|e| ParamsError(format!("{tool}.{action}: {e}")))
    }

    /// Whether this is a call of `P`'s action.
    pub fn is<P: Params>(&self) -> bool {
        (P::TOOL, P::ACTION) == (self.tool.name, self.action.name)
    }
}

/// Reads a checked call into its params struct and writes it back, as the daemon and the SDK
/// do; every generated module lists one per action in `ROUND_TRIPS` (the tests walk them).
pub type RoundTrip = fn(&crate::contract::Checked) -> Result<serde_json::Value, ParamsError>;

/// The JSON Schema of an action's result; every generated module lists one per action in
/// `RESULT_SCHEMAS` (`crate::results::schema` reads them).
pub type ResultSchema = fn() -> schemars::Schema;

/// The [`RoundTrip`] of `P`.
pub fn round_trip<P: Params>(
    c: &crate::contract::Checked,
) -> Result<serde_json::Value, ParamsError> {
    let p = c.params::<P>()?;
    serde_json::to_value(p).map_err(|e| ParamsError(e.to_string()))
}

/// The [`RoundTrip`] of a tool's action, if the generated code has one.
pub fn round_trip_of(tool: &str, action: &str) -> Option<RoundTrip> {
    let list = match tool {
        "context" => context::ROUND_TRIPS,
        "browser" => browser::ROUND_TRIPS,
        "computer" => computer::ROUND_TRIPS,
        "native" => native::ROUND_TRIPS,
        _ => return None,
    };
    list.iter().find(|(a, _)| *a == action).map(|(_, f)| *f)
}

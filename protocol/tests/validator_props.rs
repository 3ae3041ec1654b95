//! Property tests over the validator: any JSON object, made of real and made-up parameter
//! names with values of any type, either passes with only accepted parameters or is refused
//! with a field and a message; it never panics. Calls that pass are accepted by the generated
//! JSON Schema too.

use glovebox_protocol::contract::{validate_tool_call, TOOLS};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-2.0f64..70_000.0).prop_map(Value::from),
        (0u32..4).prop_map(Value::from),
        "[a-z0-9 :/#.-]{0,12}".prop_map(Value::from),
        Just(json!("e1")),
        Just(json!("chrome-9222")),
        Just(json!("app:42")),
        Just(json!("")),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
            prop::collection::btree_map("[a-z]{1,6}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Parameter names: the contract's own, plus some it does not know.
fn names() -> Vec<String> {
    let mut out: Vec<String> = TOOLS
        .iter()
        .flat_map(|t| t.actions.iter().flat_map(move |a| t.accepted(a)))
        .map(|p| p.name.to_owned())
        .collect();
    out.extend(["teleport", "amount", "text", "ACTION", "x"].map(String::from));
    out.sort();
    out.dedup();
    out
}

fn call() -> impl Strategy<Value = (usize, Value)> {
    let names = names();
    let actions: Vec<String> =
        TOOLS.iter().flat_map(|t| t.actions.iter().map(|a| a.name.to_owned())).collect();
    (
        0..TOOLS.len(),
        proptest::sample::select(actions),
        prop::collection::vec((proptest::sample::select(names), any_value()), 0..6),
    )
        .prop_map(|(tool, action, params)| {
            let mut m: Map<String, Value> = params.into_iter().collect();
            m.insert("action".into(), Value::from(action));
            (tool, Value::Object(m))
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_and_always_explains((tool, args) in call()) {
        let tool = TOOLS[tool];
        match validate_tool_call(tool, &args) {
            Ok(checked) => {
                let accepted = tool.accepted(checked.action);
                for key in checked.args.keys() {
                    prop_assert!(accepted.iter().any(|p| p.name == key), "{key} slipped through");
                }
                let schema = glovebox_protocol::contract::schema::tool_schema(tool);
                let validator = jsonschema::validator_for(&schema).expect("schema compiles");
                let mut sent = args.as_object().cloned().unwrap_or_default();
                sent.retain(|_, v| !v.is_null());
                prop_assert!(validator.is_valid(&Value::Object(sent)), "schema refuses a call the validator took: {args}");
            }
            Err(v) => {
                prop_assert!(!v.field.is_empty(), "no field for {args}");
                prop_assert!(!v.message.is_empty());
                prop_assert!(v.fields.contains(&v.field));
            }
        }
    }
}

//! Property tests of the JSON-RPC entry: any request object, with a real or made-up method and
//! any JSON as params and id, gets exactly one JSON-RPC 2.0 answer carrying its id, and an
//! error always carries a `data.code`. One in-process daemon serves every case.

use glovebox_protocol::contract::TOOLS;
use glovebox_protocol::methods::METHODS;
use glovebox_tests::raw::Raw;
use glovebox_tests::InProcess;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{json, Map, Value};

/// Any JSON value, a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        ".{0,16}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,12}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Every method the daemon answers, plus made-up ones. Waits and subscriptions are left out:
/// they answer late or never by design.
fn method() -> impl Strategy<Value = String> {
    let mut known: Vec<String> = METHODS.iter().map(|m| m.name.to_owned()).collect();
    for t in TOOLS {
        known.extend(t.actions.iter().map(|a| t.method(a)));
    }
    known.retain(|m| !m.contains("wait") && !m.contains("subscribe"));
    prop_oneof![3 => prop::sample::select(known), 1 => "[a-z.]{0,20}"]
}

/// Params: an object of any values (sometimes with real parameter names), or any JSON.
fn params() -> impl Strategy<Value = Value> {
    let names = prop::sample::select(vec![
        "ref",
        "text",
        "x",
        "y",
        "url",
        "app",
        "app_id",
        "tab_id",
        "key",
        "op_id",
        "timeout_ms",
        "duration_ms",
        "capture",
        "session",
        "protocol",
        "name",
        "arguments",
        "action",
    ]);
    prop_oneof![
        3 => prop::collection::btree_map(names, any_json(), 0..5)
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        1 => any_json(),
    ]
}

#[test]
fn every_request_gets_one_answer_with_its_id_and_a_code() {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let d = rt.block_on(InProcess::start());
    let c = std::cell::RefCell::new(rt.block_on(d.actor()));
    let mut runner = Config::with_cases(600).clone_with_source_file(file!());
    runner.failure_persistence = None;
    let mut runner = TestRunner::new(runner);
    let n = std::cell::Cell::new(0u64);
    runner
        .run(&(method(), params()), |(method, params)| {
            n.set(n.get() + 1);
            let id = format!("p{}", n.get());
            let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
            let answer = rt.block_on(exchange(&mut c.borrow_mut(), &request, &id));
            prop_assert_eq!(&answer["jsonrpc"], "2.0", "{} -> {}", request, answer);
            if let Some(err) = answer.get("error") {
                prop_assert!(
                    err["data"]["code"].as_str().is_some_and(|c| !c.is_empty()),
                    "no data.code: {} -> {}",
                    request,
                    answer
                );
            } else {
                prop_assert!(answer.get("result").is_some(), "{} -> {}", request, answer);
            }
            Ok(())
        })
        .expect("every request is answered properly");
    // The daemon still serves a fresh connection.
    let mut other = rt.block_on(d.actor());
    let status = rt.block_on(other.call("session.status", json!({})));
    assert!(status["result"].is_object(), "{status}");
    rt.block_on(d.stop());
}

/// Send one request; its answer (notifications are skipped).
async fn exchange(c: &mut Raw, request: &Value, id: &str) -> Value {
    c.send_text(&request.to_string()).await;
    loop {
        let v = c.recv().await;
        if v["id"] == id {
            return v;
        }
    }
}

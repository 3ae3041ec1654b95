//! An MCP host with nothing but MCP (the official Python SDK over Streamable HTTP): a person
//! in the loop (`request_human`, a takeover on the view page that `get_state` reports, a
//! navigate sent with a progress token that waits for the hand-back and then runs, one
//! without that answers `PAUSED` naming only what MCP can call), and files both ways (a
//! host's file stored with `context.put_file` reaching a page's file input; a download
//! clicked with `capture: false` still named, and read back as text).

use std::io::Write as _;

use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::viewer::Viewer;
use glovebox_tests::ACTOR;
use serde_json::Value;

use crate::mcp::run_client;

/// What only `/rpc` has: no text an MCP host reads may send it there.
const RPC_ONLY: [&str; 4] = ["session.status", "session.resume", "events.subscribe", "approval."];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_in_the_loop_from_mcp_alone() {
    let env = BrowserEnv::start().await;
    let url = format!("http://{}/mcp", env.daemon.addr);
    let (mut child, mut stdin, next) =
        crate::mcp::interactive(&[url.as_str(), ACTOR, &env.site.base, "human"]);
    let asked = tokio::task::block_in_place(&next);
    assert_eq!(asked["requested"], true, "{asked}");

    // The person sees the request on the page and takes over.
    let viewer = Viewer::start().await;
    let page = viewer.open(&crate::view::link(&env.daemon, ACTOR).await).await;
    page.wait_for(
        "window.glovebox.state && window.glovebox.state.requests.some(r => r.state === 'pending' \
         && r.reason.includes('log in'))",
        "the request on the page",
    )
    .await;
    page.click_on("#takeover").await;
    page.wait_for(
        "window.glovebox.state.control && window.glovebox.state.control.mine",
        "in control",
    )
    .await;
    writeln!(stdin, "taken").expect("tell the client");
    let waiting = tokio::task::block_in_place(&next);
    assert_eq!(waiting["waiting"], true, "the navigate reports that it waits: {waiting}");
    page.eval("document.getElementById('handback').click(); 1").await;
    writeln!(stdin, "back").expect("tell the client");
    let found = tokio::task::block_in_place(&next);
    assert!(child.wait().expect("exit").success());

    let state = &found["state"]["structured"]["result"];
    assert!(state["human_in_control"].as_str().is_some_and(|b| b.starts_with("actor ")), "{found}");
    assert_eq!(state["paused"], true, "{found}");
    assert!(
        state["human_requests"].as_array().is_some_and(|r| r.len() == 1),
        "the pending request: {found}"
    );
    let refused = &found["no_token"]["structured"]["error"];
    assert_eq!(refused["code"], "PAUSED", "{found}");
    let text = found["no_token_text"].as_str().unwrap_or_default();
    assert!(text.contains("context.get_state") && text.contains("progress"), "{text}");
    assert!(!RPC_ONLY.iter().any(|m| text.contains(m)), "an MCP host cannot call that: {text}");

    assert_eq!(found["act"]["is_error"], false, "it ran after the hand-back: {found}");
    assert_eq!(found["act"]["structured"]["action"], "navigate", "{found}");
    let progress = found["progress"].as_array().cloned().unwrap_or_default();
    assert!(
        progress.iter().any(|m| m.as_str().is_some_and(|m| m.contains("hand the desktop back"))),
        "{found}"
    );
    let act_text = found["act_text"].as_str().unwrap_or_default();
    assert!(
        act_text.contains("\nsession: mcp-"),
        "a stateful result names its session: {act_text}"
    );
    assert_eq!(found["request"]["structured"]["result"]["handed_back"], true, "{found}");
    let after = &found["after"]["structured"]["result"];
    assert_eq!(after["human_in_control"], Value::Null, "{found}");
    assert_eq!(after["paused"], false, "{found}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_go_both_ways_over_mcp() {
    let env = BrowserEnv::start().await;
    let url = format!("http://{}/mcp", env.daemon.addr);
    let site = env.site.base.clone();
    let found =
        tokio::task::spawn_blocking(move || run_client(&[&url, ACTOR, &site, "files"], &[]))
            .await
            .expect("client ran");
    assert_eq!(found["put"]["is_error"], false, "{found}");
    assert_eq!(found["put"]["structured"]["result"]["bytes"], found["bytes"], "{found}");
    let stored = env.daemon.state.path.join("files/host.csv");
    assert_eq!(
        std::fs::read_to_string(stored).ok().as_deref(),
        Some("name,value\nfrom,the host\n")
    );
    assert_eq!(found["upload"]["is_error"], false, "{found}");
    assert_eq!(found["in_page"], serde_json::json!(["host.csv", found["bytes"]]), "{found}");
    assert_eq!(found["bad_name"]["structured"]["error"]["code"], "CONTRACT_VIOLATION", "{found}");

    // capture: false skips the capture, not what the click caused.
    let quiet = &found["quiet_click"]["structured"];
    assert_eq!(quiet["capture"], Value::Null, "{found}");
    let downloads = quiet["result"]["downloads"].as_array().cloned().unwrap_or_default();
    assert!(
        downloads.iter().any(|d| d["path"].as_str().is_some_and(|p| p.ends_with("report.csv"))),
        "{found}"
    );
    let text = found["quiet_text"].as_str().unwrap_or_default();
    assert!(text.lines().next().is_some_and(|l| l.contains("; download ")), "{text}");
    assert!(
        found["quiet_links"]
            .as_array()
            .is_some_and(|l| l.iter().any(|u| u == "glovebox://download/report.csv")),
        "{found}"
    );
}

//! The registry's behaviour as data: nodes in, lines and refs out.

use expect_test::expect;

use super::*;

fn node(key: &str, depth: u16, head: &str) -> Node {
    Node { key: key.into(), depth, head: head.into(), ..Node::default() }
}

fn tree(names: &[(&str, &str)]) -> Vec<Node> {
    names.iter().map(|(k, h)| node(k, 1, h)).collect()
}

#[test]
fn refs_are_stable_and_diffs_are_incremental() {
    let mut s = Snapshots::default();
    let b = Budget::default();
    let v1 = s.record(
        "tab:A",
        Scope::Whole,
        &tree(&[("1", "button \"Go\""), ("2", "textbox \"Name\"")]),
        &b,
    );
    assert_eq!(v1.mode, "full");
    assert_eq!(v1.snapshot, "  button \"Go\" [e1]\n  textbox \"Name\" [e2]\n");
    let v2 = s.record(
        "tab:A",
        Scope::Whole,
        &tree(&[("2", "textbox \"Name\""), ("3", "link \"Help\"")]),
        &b,
    );
    assert_eq!(v2.mode, "incremental");
    assert_eq!(v2.snapshot, "+ link \"Help\" [e3]\n");
    assert_eq!(v2.removed_refs, ["e1"]);
    assert_eq!((v2.added, v2.unchanged), (Some(1), Some(1)));
    let v3 = s.record(
        "tab:A",
        Scope::Whole,
        &tree(&[("2", "textbox \"Name\""), ("3", "link \"Help\"")]),
        &b,
    );
    assert_eq!(v3.snapshot, "(no changes since the previous snapshot)\n");
    assert_eq!(s.resolve("tab:A", "e2", None).expect("resolves"), "2");
    assert_eq!(s.resolve("tab:A", "[ref=E3]", None).expect("normalized"), "3");
}

#[test]
fn an_unseen_recording_gives_refs_but_keeps_the_diff_baseline() {
    let mut s = Snapshots::default();
    let b = Budget::default();
    s.record("tab:A", Scope::Whole, &tree(&[("1", "button \"Go\"")]), &b);
    let now = tree(&[("1", "button \"Go\""), ("2", "link \"Help\"")]);
    let (id, refs) = s.record_unseen("tab:A", &now);
    assert_eq!(refs.get("2").map(String::as_str), Some("e2"));
    assert_eq!(s.latest("tab:A"), Some(id.as_str()));
    assert_eq!(s.resolve("tab:A", "e2", None).expect("resolves at once"), "2");
    let v = s.record("tab:A", Scope::Whole, &now, &b);
    assert_eq!(v.snapshot, "+ link \"Help\" [e2]\n", "the link was never read");
}

#[test]
fn refs_fail_with_the_right_code() {
    let mut s = Snapshots::default();
    let b = Budget::default();
    assert!(matches!(s.resolve("tab:A", "e1", None), Err(DaemonError::NoSnapshot { .. })));
    let v1 = s.record("tab:A", Scope::Whole, &tree(&[("1", "button \"Go\"")]), &b);
    s.record("tab:B", Scope::Whole, &tree(&[("9", "button \"Other\"")]), &b);
    assert!(matches!(
        s.resolve("tab:B", "e1", Some(&v1.snapshot_id)),
        Err(DaemonError::SnapshotMismatch { .. })
    ));
    assert!(matches!(s.resolve("tab:A", "e7", None), Err(DaemonError::StaleRef { .. })));
    let v2 = s.record("tab:A", Scope::Whole, &tree(&[("5", "button \"New\"")]), &b);
    // e1 is gone in the newer snapshot: the old snapshot's ref no longer holds.
    assert!(matches!(
        s.resolve("tab:A", "e1", Some(&v1.snapshot_id)),
        Err(DaemonError::SnapshotMismatch { .. })
    ));
    assert!(s.resolve("tab:A", "e2", Some(&v2.snapshot_id)).is_ok());
    s.invalidate("tab:A", "the page navigated to http://x.test/");
    match s.resolve("tab:A", "e2", None) {
        Err(DaemonError::StaleRef { reason, .. }) => assert!(reason.contains("navigated")),
        other => panic!("{other:?}"),
    }
    // Another target's refs are untouched.
    assert!(s.resolve("tab:B", "e1", None).is_ok());
}

#[test]
fn pages_follow_the_budget_and_continue() {
    let mut s = Snapshots::default();
    let nodes: Vec<Node> =
        (0..10).map(|i| node(&i.to_string(), 0, &format!("item \"n{i}\""))).collect();
    let b = Budget { limit: 4, ..Budget::default() };
    let v = s.record("app:1", Scope::Whole, &nodes, &b);
    assert!(v.truncated);
    assert_eq!(v.lines, 4);
    assert_eq!(v.truncated_reason.as_deref(), Some("limit 4 reached; 6 more lines remain"));
    let cursor = v.next_cursor.expect("cursor");
    let c = s.continue_from(&cursor, &b).expect("continues");
    assert_eq!(c.mode, "continued");
    assert!(c.snapshot.starts_with("item \"n4\" [e5]"));
    let q = Budget { query: Some("N7".into()), disable_diffing: true, ..Budget::default() };
    let v = s.record("app:1", Scope::Whole, &nodes, &q);
    assert_eq!(v.snapshot, "item \"n7\" [e8]\n");
    assert!(s.continue_from("bogus", &b).is_err());
}

/// Nodes from `depth|key|head|x,y,w,h|control` lines (box and control optional).
fn outline(spec: &str) -> Vec<Node> {
    spec.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            let bbox = f.get(3).filter(|b| !b.is_empty()).map(|b| {
                let v: Vec<i64> = b.split(',').map(|x| x.parse().expect("coordinate")).collect();
                [v[0], v[1], v[2], v[3]]
            });
            Node {
                key: f[1].into(),
                depth: f[0].parse().expect("depth"),
                head: f[2].into(),
                bbox,
                control: f.get(4) == Some(&"c"),
                ..Node::default()
            }
        })
        .collect()
}

#[test]
fn incremental_lines_say_where_they_sit_and_jitter_is_no_change() {
    let mut s = Snapshots::default();
    let b = Budget::default();
    let before = outline(
        "0|r|main
         1|n|navigation \"Folders\"|0,0,100,300
         2|i|link \"Inbox\"|0,0,100,20|c
         1|p|region \"Post\"|0,300,100,50
         2|t|text \"hello\"|0,300,50,20",
    );
    s.record("tab:A", Scope::Whole, &before, &b);
    let after = outline(
        "0|r|main
         1|n|navigation \"Folders\"|0,1,100,302
         2|i|link \"Inbox\"|0,1,100,20|c
         2|a|link \"Archive\"|0,21,100,20|c
         1|p|region \"Post\"|0,320,100,50
         2|t|text \"hello\"|0,320,50,20
         2|l|button \"Like\"|60,320,20,20|c",
    );
    let v = s.record("tab:A", Scope::Whole, &after, &b);
    expect![[r#"
        in navigation "Folders" [e2]
        + link "Archive" [e6] @0,21 100x20
        in main [e1]
        ~ region "Post" [e4] @0,320 100x50
        ~   text "hello" [e5] @0,320 50x20
        +   button "Like" [e7] @60,320 20x20
    "#]]
    .assert_eq(&v.snapshot);
    assert_eq!((v.added, v.updated, v.unchanged), (Some(2), Some(2), Some(3)));
    // 1 px steps add up: the baseline keeps the old box until the drift reaches 4 px.
    let drift = |dy: i64| {
        outline(&format!(
            "0|r|main
             1|n|navigation \"Folders\"|0,{dy},100,302
             2|i|link \"Inbox\"|0,1,100,20|c
             2|a|link \"Archive\"|0,21,100,20|c
             1|p|region \"Post\"|0,320,100,50
             2|t|text \"hello\"|0,320,50,20
             2|l|button \"Like\"|60,320,20,20|c"
        ))
    };
    let v = s.record("tab:A", Scope::Whole, &drift(3), &b);
    assert_eq!(v.snapshot, "(no changes since the previous snapshot)\n");
    let v = s.record("tab:A", Scope::Whole, &drift(4), &b);
    assert_eq!(v.updated, Some(1), "4 px from the baseline's 0: {}", v.snapshot);
    let v = s.record("tab:A", Scope::Whole, &drift(5), &b);
    assert_eq!(v.updated, Some(0), "{}", v.snapshot);
}

#[test]
fn removed_refs_are_capped_with_a_count() {
    let mut s = Snapshots::default();
    let b = Budget::default();
    let many: Vec<Node> = (0..120).map(|i| node(&i.to_string(), 0, "listitem")).collect();
    s.record("tab:A", Scope::Whole, &many, &b);
    let v = s.record("tab:A", Scope::Whole, &many[..10], &b);
    assert_eq!(v.removed_refs.len(), 50);
    assert_eq!(v.removed_refs[0], "e11");
    assert_eq!(v.removed_count, Some(110));
    assert!(v.snapshot.ends_with("e60 and 60 more)\n"), "{}", v.snapshot);
}

#[test]
fn views_keep_the_baseline_and_the_refs_outside_them() {
    let mut s = Snapshots::default();
    let b = Budget::default();
    let page = outline(
        "0|r|main
         1|f|form \"Search\"
         2|q|searchbox \"Query\"||c
         2|g|button \"Go\"||c
         1|x|button \"Elsewhere\"||c",
    );
    s.record("tab:A", Scope::Whole, &page, &b);
    let mut changed = page.clone();
    changed.push(node("n", 1, "text \"News\""));
    let q = Budget { query: Some("go".into()), ..Budget::default() };
    let v = s.record("tab:A", Scope::Whole, &changed, &q);
    assert_eq!(v.view, Some("query"));
    assert_eq!(v.mode, "full");
    let scoped = s.record("tab:A", Scope::Subtree("e2"), &changed[1..4], &b);
    assert_eq!(scoped.view, Some("scope"));
    assert_eq!(s.resolve("tab:A", "e5", None).expect("outside the scope"), "x");
    let plain = s.record("tab:A", Scope::Whole, &changed, &b);
    assert_eq!(
        plain.snapshot, "in main [e1]\n+ text \"News\" [e6]\n",
        "the views did not move the baseline"
    );
    // A window of an app is a view too.
    s.record("app:1", Scope::Window("A"), &outline("0|a|frame \"A\""), &b);
    s.record("app:1", Scope::Window("B"), &outline("0|b|frame \"B\""), &b);
    assert_eq!(s.resolve("app:1", "e1", None).expect("window A's ref"), "a");
}

#[test]
fn queries_match_every_word_in_any_order_with_ancestors_and_row_controls() {
    let nodes = outline(
        "0|r|main
         1|h|heading \"Inbox\"
         1|l|list \"Messages\"
         2|p1|listitem
         3|t1|text \"Alice: lunch tomorrow?\"
         3|r1|button \"Reply\"||c
         3|m1|button \"More\"||c
         2|p2|listitem
         3|t2|text \"Bob: the report\"
         3|r2|button \"Reply\"||c
         1|f|region \"Footer\"
         2|a|link \"Archive\"||c",
    );
    let refs: Vec<String> = (1..=nodes.len()).map(|i| format!("e{i}")).collect();
    let show = |q: &str| {
        let (lines, how) = select::select(&nodes, &refs, Some(q));
        format!("{how}\n{}\n", lines.join("\n"))
    };
    expect![[r#"
        all
        main [e1]
          list "Messages" [e3]
            listitem [e4]
              text "Alice: lunch tomorrow?" [e5]
              button "Reply" [e6]
              button "More" [e7]
    "#]]
    .assert_eq(&show("TOMORROW alice"));
    expect![[r#"
        all
        main [e1]
          region "Footer" [e11]
            link "Archive" [e12]
    "#]]
    .assert_eq(&show("footer archive"));
    expect![[r#"
        any
        main [e1]
          heading "Inbox" [e2]
          list "Messages" [e3]
            listitem [e8]
              text "Bob: the report" [e9]
              button "Reply" [e10]
    "#]]
    .assert_eq(&show("inbox report"));
    assert!(show("zebra").starts_with("none\n"));
}

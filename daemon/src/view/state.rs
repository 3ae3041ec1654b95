//! What one page shows, built for its token: the sessions it may see with their recent ops,
//! the pending approvals (with their arguments for approvers and admins only), the requests
//! for a person, the marked tabs, the tabs with a live code session, and who is in control.

use serde_json::{json, Value};

use crate::auth::Role;
use crate::session::Owner;
use crate::state::Daemon;

/// The person behind one page.
#[derive(Debug, Clone)]
pub struct Person {
    pub role: Role,
    pub owner: Owner,
    /// The page socket's id.
    pub socket: u64,
    pub who: String,
}

impl Person {
    pub fn can_control(&self) -> bool {
        self.role.can_act()
    }
}

/// The page's `state` message.
pub fn of(daemon: &Daemon, p: &Person) -> Value {
    let sessions: Vec<Value> = daemon
        .sessions
        .all()
        .iter()
        .filter(|s| p.owner.may_use(&s.creator))
        .map(|s| {
            json!({
                "id": s.id,
                "paused": s.is_paused(),
                "human_in_control": daemon.people.human_in_control(&s.creator).is_some(),
                "ops": daemon.people.feed.of(&s.id),
            })
        })
        .collect();
    let approver = p.role.can_approve();
    let approvals: Vec<Value> = daemon
        .approvals
        .pending()
        .into_iter()
        .filter_map(|asked| {
            let session = daemon.sessions.get(&asked.session);
            let mine = session.is_some_and(|s| p.owner.may_use(&s.creator));
            (approver || mine).then(|| {
                let mut a = asked.json();
                crate::events::approval_for(&mut a, approver);
                a
            })
        })
        .collect();
    let marks: Vec<Value> = daemon
        .config
        .browser
        .as_ref()
        .map(|b| b.marks().into_iter().map(|(tab, m)| json!({"tab": tab, "mark": m})).collect())
        .unwrap_or_default();
    // Tabs with a live code session, and whose it is.
    let code: Vec<Value> = daemon
        .code
        .all()
        .into_iter()
        .filter(|e| p.owner.may_use(&e.owner))
        .map(|e| {
            let mut v = e.json();
            v["tab"] = json!(format!("{}/{}", e.browser_id, e.tab_id));
            v["session"] = json!(e.session_id);
            v
        })
        .collect();
    let control = daemon
        .people
        .controller()
        .map(|(by, socket)| json!({"by": by, "mine": socket == p.socket}));
    json!({
        "t": "state",
        "sessions": sessions,
        "approvals": approvals,
        "requests": daemon.people.requests_for(&p.owner),
        "marks": marks,
        "code": code,
        "control": control,
    })
}

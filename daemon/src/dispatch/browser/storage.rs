//! `storage_state`: the session's cookies and localStorage saved to `files/` as Playwright's
//! `storageState`, or such a file loaded into the session's context (`browser/profiles.rs`).

use glovebox_protocol::actions::browser;
use glovebox_protocol::contract::Violation;
use glovebox_protocol::results::browser as results;

use super::TabCx;
use crate::browser::StorageState;
use crate::error::DaemonError;

pub(super) async fn storage_state(
    cx: TabCx,
    p: browser::StorageState,
) -> Result<results::StorageState, DaemonError> {
    let lane = cx.ctx.session.lane();
    let files = &cx.ctx.daemon.config.files;
    if let Some(name) = &p.load {
        let (lane_dir, own) = (cx.b.downloads_dir(), (!lane.all).then_some(lane.key.as_str()));
        let path = files.readable_in_lane(name, &lane_dir, own)?;
        let bytes = std::fs::read(&path)
            .map_err(|e| DaemonError::ActionFailed(format!("cannot read {name}: {e}")))?;
        let state: StorageState = serde_json::from_slice(&bytes).map_err(|e| {
            let msg = format!("{name} is not a storageState file ({{cookies, origins}}): {e}");
            DaemonError::Contract(Violation::new("load", msg))
        })?;
        cx.b.load_storage_state(&lane, &cx.tab, &state).await?;
        return Ok(results::StorageState {
            path: files.shown(&path),
            loaded: true,
            cookies: state.cookies.len(),
            origins: state.origins.len(),
        });
    }
    let mut state = cx.b.storage_state(&lane, &cx.tab).await?;
    state.origins.retain(|o| !o.local_storage.is_empty());
    let name = match &lane.profile {
        Some(p) => format!("storage-state-{}.json", p.name),
        None => "storage-state.json".to_owned(),
    };
    let bytes = serde_json::to_vec_pretty(&state)
        .map_err(|e| DaemonError::ActionFailed(format!("cannot write the state: {e}")))?;
    let path = files.put(&name, &bytes)?;
    Ok(results::StorageState {
        path: files.shown(&path),
        loaded: false,
        cookies: state.cookies.len(),
        origins: state.origins.len(),
    })
}

//! The subcommands that speak to a running daemon or to its token file instead of serving:
//! `gloveboxd view-link`, `gloveboxd mcp --url`, `gloveboxd token add`.

use std::io::Write as _;
use std::net::SocketAddr;

use anyhow::Context as _;
use glovebox_daemon::cli::Cli;

/// `gloveboxd token add`: a fresh token, its hash appended to the token file.
pub fn token_add(cli: &Cli, role: &str, party: Option<&str>) -> anyhow::Result<()> {
    let Some(role) = glovebox_daemon::auth::Role::parse(role) else {
        anyhow::bail!("unknown role {role:?}: use observer, actor, approver or admin");
    };
    if let Some(p) = party.filter(|p| !glovebox_daemon::auth::party_name(p)) {
        anyhow::bail!("bad party {p:?}: use 1 to 64 letters, digits, '-' or '_'");
    }
    nix::sys::stat::umask(nix::sys::stat::Mode::from_bits_truncate(0o077));
    let path = cli.token_file();
    let token = glovebox_daemon::auth::add(&path, role, party)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{token}")?;
    eprintln!(
        "gloveboxd: a new {} token; {} keeps only its hash, so keep the token now (a running daemon takes it at its next SIGHUP)",
        role.as_str(),
        path.display()
    );
    Ok(())
}

/// The token a client subcommand presents: `$GLOVEBOX_TOKEN`, else the token file's first.
fn client_token(cli: &Cli, what: &str) -> anyhow::Result<String> {
    Ok(match std::env::var("GLOVEBOX_TOKEN") {
        Ok(t) if !t.trim().is_empty() => t.trim().to_owned(),
        _ => {
            let path = cli.token_file.as_ref().with_context(|| {
                format!(
                    "{what} needs the daemon's token: give --token-file PATH or set GLOVEBOX_TOKEN"
                )
            })?;
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the token file {}", path.display()))?;
            let first = text
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty() && !l.starts_with('#'))
                .and_then(|l| l.split_whitespace().next())
                .with_context(|| format!("the token file {} holds no token", path.display()))?;
            if first.starts_with("sha256:") {
                anyhow::bail!(
                    "the token file {} keeps hashes only; {what} needs the token itself in GLOVEBOX_TOKEN",
                    path.display()
                );
            }
            first.to_owned()
        }
    })
}

/// `gloveboxd view-link`: asks the running daemon (`view.link` over `/rpc`) for a fresh
/// single-use code of the token and prints the link.
pub fn view_link(cli: &Cli) -> anyhow::Result<()> {
    use futures::{SinkExt as _, StreamExt as _};
    use tokio_tungstenite::tungstenite::{client::IntoClientRequest as _, Message};
    let token = client_token(cli, "gloveboxd view-link")?;
    let addr = cli.listen.unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 7788)));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let path = runtime.block_on(async {
        let mut req = format!("ws://{addr}/rpc").into_client_request()?;
        req.headers_mut().insert("authorization", format!("Bearer {token}").parse()?);
        let connect = tokio_tungstenite::connect_async(req);
        let (mut ws, _) = tokio::time::timeout(std::time::Duration::from_secs(10), connect)
            .await
            .with_context(|| format!("no answer from a daemon at {addr} within 10 s"))?
            .with_context(|| {
                format!("cannot reach the daemon at ws://{addr}/rpc (is it running? give --listen)")
            })?;
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"view.link"}"#;
        ws.send(Message::text(call)).await?;
        let answer = tokio::time::timeout(std::time::Duration::from_secs(10), async {
            while let Some(m) = ws.next().await {
                if let Message::Text(t) = m? {
                    return Ok::<_, anyhow::Error>(serde_json::from_str::<serde_json::Value>(&t)?);
                }
            }
            anyhow::bail!("the daemon closed the connection")
        })
        .await
        .context("the daemon did not answer view.link within 10 s")??;
        let Some(path) = answer["result"]["path"].as_str() else {
            anyhow::bail!("the daemon refused view.link: {}", answer["error"]);
        };
        Ok::<_, anyhow::Error>(path.to_owned())
    })?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "http://{addr}{path}")?;
    Ok(())
}

/// `gloveboxd mcp --url`: MCP on stdio, bridged to the daemon at `url`.
pub fn bridge(cli: &Cli, url: &str) -> anyhow::Result<()> {
    let token = client_token(cli, "gloveboxd mcp --url")?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(glovebox_daemon::mcp::bridge::serve(url, &token))?;
    Ok(())
}

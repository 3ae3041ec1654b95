//! A loopback HTTP/1.0 site for benchmarks: every request path goes to one function that
//! says what to answer and how late.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

/// One answer.
pub struct Page {
    pub delay: Duration,
    pub mime: &'static str,
    pub body: String,
}

/// Serves `page(path)` for every request on a free loopback port; the base URL.
pub async fn serve<F>(page: F) -> anyhow::Result<String>
where
    F: Fn(&str) -> Page + Send + Sync + 'static,
{
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let page = Arc::new(page);
    tokio::spawn(async move {
        while let Ok((mut s, _)) = listener.accept().await {
            let page = page.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 4096];
                let n = s.read(&mut buf).await.unwrap_or(0);
                let head = String::from_utf8_lossy(&buf[..n]).to_string();
                let path = head.split_whitespace().nth(1).unwrap_or("/").to_owned();
                let p = page(&path);
                tokio::time::sleep(p.delay).await;
                let head = format!(
                    "HTTP/1.0 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
                     Cache-Control: no-store\r\nConnection: close\r\n\r\n",
                    p.mime,
                    p.body.len()
                );
                let _ = s.write_all(head.as_bytes()).await;
                let _ = s.write_all(p.body.as_bytes()).await;
                let _ = s.shutdown().await;
            });
        }
    });
    Ok(base)
}

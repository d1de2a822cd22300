//! A load test against a running `sanjuan serve`: N tables (default 50),
//! each with one client playing its person's seat against two bots over real
//! HTTP, for S seconds (default 60). Prints errors and the time from a click
//! (the answer sent) to the updated view (the response received).
//!
//! ```sh
//! sanjuan serve --port 8099 --max-tables 20000 --tables-per-minute 100000 --tables-per-address 100000 --moves-per-second 100000 &
//! cargo run --release -p sanjuan-web --example load -- 127.0.0.1:8099 60 50
//! ```

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One HTTP/1.1 request on a fresh connection; (status, JSON body).
async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> Result<(u16, Value), String> {
    let mut stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let body = body.unwrap_or("");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&response);
    let status = text.get(9..12).and_then(|s| s.parse().ok()).ok_or("no status line")?;
    let json = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    Ok((status, serde_json::from_str(json).unwrap_or(Value::Null)))
}

async fn new_table(addr: SocketAddr, seed: u64) -> Result<(String, String), String> {
    let body = serde_json::json!({ "ruleset": "second-edition", "seats": ["human", "greedy", "random"], "seed": seed })
        .to_string();
    let (status, v) = http(addr, "POST", "/api/tables", Some(&body)).await?;
    if status != 200 {
        return Err(format!("new table: {status} {v}"));
    }
    Ok((
        v["table"].as_str().unwrap_or_default().to_owned(),
        v["seats"][0]["token"].as_str().unwrap_or_default().to_owned(),
    ))
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let Some(addr) = args.next().and_then(|a| a.parse::<SocketAddr>().ok()) else {
        eprintln!("usage: load ADDRESS:PORT [SECONDS] [TABLES] (a running `sanjuan serve`)");
        std::process::exit(2);
    };
    let seconds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(60);
    let tables: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let errors = Arc::new(AtomicU64::new(0));
    let games = Arc::new(AtomicU64::new(0));
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut clients = Vec::new();
    for k in 0..tables {
        let (errors, games) = (Arc::clone(&errors), Arc::clone(&games));
        clients.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut seed = k * 1000;
            let (mut table, mut token) = match new_table(addr, seed).await {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("{e}");
                    errors.fetch_add(1, Ordering::Relaxed);
                    return latencies;
                }
            };
            // Log lines this client has: like the page, it asks only for the rest.
            let mut have = 0;
            let (mut waiting, mut version) = (false, 0);
            let lines =
                |v: &Value| v["log_start"].as_u64().unwrap_or(0) as usize + v["log"].as_array().map_or(0, Vec::len);
            while Instant::now() < end {
                // The bots of a new table move after it opens: then wait for the next change.
                let since = if waiting { format!("&since={version}") } else { String::new() };
                let (status, state) = match http(
                    addr,
                    "GET",
                    &format!("/api/tables/{table}/state?token={token}&log={have}{since}"),
                    None,
                )
                .await
                {
                    Ok(r) => r,
                    Err(_) => (0, Value::Null),
                };
                if status != 200 {
                    errors.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                have = lines(&state);
                if state["over"].as_bool() == Some(true) {
                    games.fetch_add(1, Ordering::Relaxed);
                    seed += 1;
                    have = 0;
                    waiting = false;
                    match new_table(addr, seed).await {
                        Ok(t) => (table, token) = t,
                        Err(_) => {
                            errors.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    continue;
                }
                version = state["version"].as_u64().unwrap_or(0);
                waiting = state["legal"].as_array().is_none_or(Vec::is_empty);
                if waiting {
                    continue;
                }
                let body =
                    serde_json::json!({ "token": token, "choice": 0, "version": version, "log": have }).to_string();
                let click = Instant::now();
                match http(addr, "POST", &format!("/api/tables/{table}/act"), Some(&body)).await {
                    Ok((200, v)) => {
                        latencies.push(click.elapsed());
                        have = lines(&v);
                    }
                    _ => {
                        errors.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            latencies
        }));
    }
    let mut all: Vec<Duration> = Vec::new();
    for c in clients {
        all.extend(c.await.unwrap_or_default());
    }
    all.sort();
    let at = |q: f64| {
        all.get(((all.len() as f64 * q) as usize).min(all.len().saturating_sub(1))).copied().unwrap_or_default()
    };
    println!(
        "{tables} tables for {seconds} s: {} actions, {} games finished, {} errors; click to updated view: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        all.len(),
        games.load(Ordering::Relaxed),
        errors.load(Ordering::Relaxed),
        at(0.5).as_secs_f64() * 1000.0,
        at(0.99).as_secs_f64() * 1000.0,
        all.last().copied().unwrap_or_default().as_secs_f64() * 1000.0
    );
}

//! The web table through its HTTP interface (no network: requests go straight
//! to the router): tables, seats and tokens, hidden information on the wire,
//! refusals that leave the game unchanged, waiting for changes, saving.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use sanjuan_web::{Config, Server, app};
use serde_json::{Value, json};
use tower::ServiceExt;

fn server() -> Arc<Server> {
    Server::new(Config { port: 0, ..Config::default() })
}

async fn call(s: &Arc<Server>, method: &str, uri: &str, body: Option<String>) -> (StatusCode, Value) {
    let req = Request::builder().method(method).uri(uri).header("content-type", "application/json");
    let req = req.body(body.map_or_else(Body::empty, Body::from)).unwrap();
    let res = app(Arc::clone(s)).oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

async fn table(s: &Arc<Server>, ruleset: &str, seats: &[&str], seed: u64) -> (String, Vec<(u64, String)>) {
    let body = json!({ "ruleset": ruleset, "seats": seats, "seed": seed }).to_string();
    let (status, v) = call(s, "POST", "/api/tables", Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let id = v["table"].as_str().unwrap().to_owned();
    let tokens = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["seat"].as_u64().unwrap(), x["token"].as_str().unwrap().to_owned()))
        .collect();
    (id, tokens)
}

async fn state(s: &Arc<Server>, id: &str, token: &str) -> Value {
    let (status, v) = call(s, "GET", &format!("/api/tables/{id}/state?token={token}"), None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

async fn act(s: &Arc<Server>, id: &str, token: &str, action: &str) -> (StatusCode, Value) {
    call(s, "POST", &format!("/api/tables/{id}/act"), Some(json!({ "token": token, "action": action }).to_string()))
        .await
}

#[tokio::test]
async fn people_get_tokens_and_bots_do_not() {
    let s = server();
    let (_, tokens) = table(&s, "second-edition", &["human", "random", "human"], 5).await;
    assert_eq!(tokens.iter().map(|(seat, _)| *seat).collect::<Vec<_>>(), [0, 2]);
    assert!(tokens.iter().all(|(_, t)| t.len() == 32 && t.chars().all(|c| c.is_ascii_hexdigit())));
    assert_ne!(tokens[0].1, tokens[1].1);
}

#[tokio::test]
async fn a_seat_sees_its_own_hand_only_on_the_wire() {
    let s = server();
    let (id, tokens) = table(&s, "second-edition", &["human", "human"], 3).await;
    let (a, b) = (&tokens[0].1, &tokens[1].1);
    let mine = state(&s, &id, a).await;
    let theirs = state(&s, &id, b).await;
    let hand0: Vec<String> =
        mine["view"]["players"][0]["hand"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_owned()).collect();
    assert_eq!(hand0.len(), 4);
    // Seat 1's whole message: no hand of seat 0, no cards under buildings or scores of seat 0, no deck order.
    let p0 = &theirs["view"]["players"][0];
    assert!(p0.get("hand").is_none() && p0.get("under").is_none() && p0.get("score").is_none(), "{p0}");
    assert_eq!(p0["hand_size"], 4);
    assert!(theirs["view"].get("deck").is_none() && theirs["view"]["deck_size"].is_u64());
    // The decider's legal answers reach only the decider.
    let to_move = mine["to_move"].as_u64().unwrap() as usize;
    let (decider, other) = if to_move == 0 { (&mine, &theirs) } else { (&theirs, &mine) };
    assert!(!decider["legal"].as_array().unwrap().is_empty());
    assert!(other["legal"].as_array().unwrap().is_empty());
    assert!(other["view"]["pending"]["legal"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn refused_requests_leave_the_game_unchanged() {
    let s = server();
    let (id, tokens) = table(&s, "second-edition", &["human", "human"], 3).await;
    let first = state(&s, &id, &tokens[0].1).await;
    let to_move = first["to_move"].as_u64().unwrap() as usize;
    let (mover, waiter) = (&tokens[to_move].1, &tokens[1 - to_move].1);
    // Another seat's turn, a token of no seat, an illegal action, nonsense, too long.
    let (status, v) = act(&s, &id, waiter, "role builder").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("turn"));
    assert_eq!(act(&s, &id, "0123456789abcdef0123456789abcdef", "role builder").await.0, StatusCode::FORBIDDEN);
    let (status, v) = act(&s, &id, mover, "build palace").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["error"].as_str().unwrap().contains("illegal action"), "{v}");
    assert_eq!(act(&s, &id, mover, &"x".repeat(300)).await.0, StatusCode::BAD_REQUEST);
    let (status, _) = call(&s, "POST", &format!("/api/tables/{id}/act"), Some("{not json".into())).await;
    assert!(status.is_client_error());
    let (status, _) = call(
        &s,
        "POST",
        &format!("/api/tables/{id}/act"),
        Some(format!("{{\"token\":\"{mover}\",\"action\":\"{}\"}}", "y".repeat(20_000))),
    )
    .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(call(&s, "GET", "/api/tables/nope/state?token=x", None).await.0, StatusCode::NOT_FOUND);
    // Nothing happened.
    let after = state(&s, &id, &tokens[0].1).await;
    assert_eq!(after["version"], first["version"]);
    assert_eq!(after["view"], first["view"]);
}

#[tokio::test]
async fn flooding_is_slowed_down() {
    let s = server();
    let (id, tokens) = table(&s, "second-edition", &["human", "human"], 3).await;
    let waiter = {
        let st = state(&s, &id, &tokens[0].1).await;
        &tokens[1 - st["to_move"].as_u64().unwrap() as usize].1
    };
    let mut statuses = Vec::new();
    for _ in 0..25 {
        statuses.push(act(&s, &id, waiter, "role builder").await.0);
    }
    assert!(statuses[..20].iter().all(|s| *s == StatusCode::CONFLICT), "{statuses:?}");
    assert!(statuses[20..].iter().all(|s| *s == StatusCode::TOO_MANY_REQUESTS), "{statuses:?}");
}

#[tokio::test]
async fn a_whole_game_against_bots_in_both_games_and_the_save_replays() {
    for (ruleset, seats) in
        [("second-edition", vec!["human", "greedy", "random"]), ("alhambra", vec!["human", "greedy"])]
    {
        let s = server();
        let (id, tokens) = table(&s, ruleset, &seats, 9).await;
        let token = &tokens[0].1;
        let mut moves = 0;
        loop {
            let st = state(&s, &id, token).await;
            if st["over"].as_bool().unwrap() {
                assert!(!st["log"].as_array().unwrap().is_empty());
                break;
            }
            assert_eq!(st["to_move"], 0, "bots answer at once: a person always has the move");
            let first = st["legal"][0].as_str().unwrap().to_owned();
            let (status, v) = act(&s, &id, token, &first).await;
            assert_eq!(status, StatusCode::OK, "{ruleset}: {first}: {v}");
            moves += 1;
            assert!(moves < 5000, "{ruleset}: no end");
        }
        let req = Request::builder().uri(format!("/api/tables/{id}/save?token={token}")).body(Body::empty()).unwrap();
        let res = app(Arc::clone(&s)).oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let text = String::from_utf8(res.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
        assert!(text.contains(&format!("ruleset = \"{ruleset}\"")) && text.contains("actions = ["), "{text}");
        if ruleset == "second-edition" {
            let source = engine_rules::files::Source::Disk("game.toml".into());
            let saved = engine_rules::saved::SavedGame::<san_juan::Game>::parse(&source, &text).unwrap();
            let (game, _) = saved.replay(&source, false).unwrap();
            assert!(game.is_over(), "the saved game replays to its end");
        }
    }
}

#[tokio::test]
async fn a_client_waits_for_the_next_change_and_a_reload_resumes_the_seat() {
    let s = server();
    let (id, tokens) = table(&s, "second-edition", &["human", "random"], 4).await;
    let token = tokens[0].1.clone();
    let st = state(&s, &id, &token).await;
    let version = st["version"].as_u64().unwrap();
    // Someone waits for the version after this one…
    let waiter = {
        let (s, id, token) = (Arc::clone(&s), id.clone(), token.clone());
        tokio::spawn(async move {
            call(&s, "GET", &format!("/api/tables/{id}/state?token={token}&since={version}"), None).await
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    let first = st["legal"][0].as_str().unwrap().to_owned();
    assert_eq!(act(&s, &id, &token, &first).await.0, StatusCode::OK);
    let (status, v) = waiter.await.unwrap();
    assert_eq!(status, StatusCode::OK);
    assert!(v["version"].as_u64().unwrap() > version);
    // …and a reload (a new request with the same link) finds the seat where it was.
    let again = state(&s, &id, &token).await;
    assert_eq!(again["version"], v["version"]);
    assert_eq!(again["log"], v["log"]);
}

#[tokio::test]
async fn bad_tables_are_refused_and_tables_are_bounded() {
    let s = Server::new(Config { port: 0, max_tables: 2, ..Config::default() });
    for (body, want) in [
        (json!({ "ruleset": "third-edition", "seats": ["human", "random"] }), "unknown ruleset"),
        (json!({ "ruleset": "second-edition", "seats": ["random", "random"] }), "at least one `human`"),
        (json!({ "ruleset": "second-edition", "seats": ["human", "genius"] }), "unknown bot"),
        (json!({ "ruleset": "second-edition", "seats": ["human"] }), "1 players"),
    ] {
        let (status, v) = call(&s, "POST", "/api/tables", Some(body.to_string())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert!(v["error"].as_str().unwrap().contains(want), "{v}");
    }
    table(&s, "second-edition", &["human", "random"], 1).await;
    table(&s, "alhambra", &["human", "random"], 1).await;
    let (status, _) = call(
        &s,
        "POST",
        "/api/tables",
        Some(json!({ "ruleset": "second-edition", "seats": ["human", "random"] }).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
}

#[tokio::test]
async fn the_page_is_served_whole_and_fetches_nothing_elsewhere() {
    let s = server();
    for uri in ["/", "/play/abc/def"] {
        let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
        let res = app(Arc::clone(&s)).oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let html = String::from_utf8(res.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
        assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<script>"));
        assert!(
            !html.contains("http://") && !html.contains("https://") && !html.contains(" src="),
            "nothing fetched from elsewhere"
        );
    }
}

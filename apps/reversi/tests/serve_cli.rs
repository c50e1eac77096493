//! `reversi serve` over real sockets, with small limits: the connection and event-stream caps
//! answer with JSON errors, idle connections are closed, a game the server holds cannot be
//! resumed in the terminal, after a graceful stop and a restart the game goes on, and a local
//! server answers to its own names and its `--public-url` only.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, ChildStdout};
use std::time::{Duration, Instant};

use reversi_testkit::TestCommand;

const BIN: &str = env!("CARGO_BIN_EXE_reversi");

/// A running server; killed when the test ends, however it ends.
struct Server {
    child: Child,
    addr: String,
    out: BufReader<ChildStdout>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(db: &Path, extra: &[&str]) -> Server {
    launch(
        TestCommand::new(BIN)
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(extra),
    )
}

/// Starts a server with `command` and reads the address it listens on.
fn launch(command: TestCommand) -> Server {
    let mut child = command.spawn();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let addr = first
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .trim_end_matches('/')
        .to_string();
    Server { child, addr, out }
}

/// One request on its own connection: the status and the body.
fn http(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\ncontent-length: {}\r\n",
        body.len()
    );
    if !body.is_empty() {
        req.push_str("content-type: application/json\r\n");
    }
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    parse(&text)
}

fn parse(text: &str) -> (u16, String) {
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("not HTTP: {text:?}"));
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

/// A GET addressed to `host` (its Host header): the status and the body.
fn get_as(addr: &str, host: &str, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    parse(&text)
}

fn field<'a>(json: &'a str, name: &str) -> &'a str {
    let key = format!("\"{name}\":");
    let rest = &json[json
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {json}"))
        + key.len()..];
    let rest = rest.trim_start_matches('"');
    let end = rest.find(['"', ',', '}']).unwrap();
    &rest[..end]
}

#[test]
fn connection_and_stream_caps_answer_json_and_idle_connections_close() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");
    let server = start(&db, &["--connections", "2", "--header-timeout", "2"]);
    let addr = server.addr.as_str();
    // Two sockets that send nothing fill the connections: the next gets a JSON 503.
    let idle: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(addr).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(200));
    let (s, body) = http(addr, "GET", "/api/levels", &[], "");
    assert_eq!(s, 503, "{body}");
    assert!(body.contains("connections open"), "{body}");
    // They are closed after the header timeout.
    for mut sock in idle {
        sock.set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut buf = Vec::new();
        let started = Instant::now();
        let _ = sock.read_to_end(&mut buf);
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "an idle socket stayed open"
        );
    }
    // Room again: a refused method is a JSON 405.
    let (s, body) = http(addr, "PUT", "/api/games", &[], "");
    assert_eq!(s, 405, "{body}");
    assert!(body.contains("\"error\""), "{body}");
    drop(server);

    let server = start(&db, &["--streams", "1"]);
    let addr = server.addr.as_str();
    let (s, created) = http(addr, "POST", "/api/games", &[], r#"{"white":"human"}"#);
    assert_eq!(s, 201, "{created}");
    let id = field(&created, "id").to_string();
    // One event stream is allowed; a second is refused while it lasts.
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET /api/games/{id}/events HTTP/1.1\r\nhost: {addr}\r\n\r\n"
    )
    .unwrap();
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
    let (s, body) = http(addr, "GET", &format!("/api/games/{id}/events"), &[], "");
    assert_eq!(s, 503, "{body}");
    assert!(body.contains("event streams open"), "{body}");
}

#[test]
fn the_server_holds_its_games_and_gives_them_back_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");
    let mut server = start(&db, &[]);
    let (s, created) = http(
        &server.addr,
        "POST",
        "/api/games",
        &[],
        r#"{"white":"human"}"#,
    );
    assert_eq!(s, 201, "{created}");
    let id = field(&created, "id").to_string();
    let token = field(&created, "token").to_string();
    let (s, v) = http(
        &server.addr,
        "POST",
        &format!("/api/games/{id}/moves"),
        &[("x-player-token", &token)],
        r#"{"square":"f5"}"#,
    );
    assert_eq!(s, 200, "{v}");
    // The terminal may not take the game while the server plays it.
    let out = TestCommand::new(BIN)
        .args(["history", "resume", &id, "--plain", "--db"])
        .arg(&db)
        .stdin("quit\n")
        .run()
        .assert_failure();
    assert!(
        out.stderr.contains("being played by reversi serve"),
        "{out}"
    );
    // A graceful stop (SIGTERM) ends the process and lets go of the game.
    let pid = server.child.id().to_string();
    TestCommand::new("kill")
        .args(["-TERM", &pid])
        .run()
        .assert_success();
    let mut rest = String::new();
    server.out.read_to_string(&mut rest).unwrap();
    assert!(rest.contains("stopped"), "{rest}");
    assert!(server.child.wait().unwrap().success());
    // A new server gives the game back, the same token moving for Black.
    let server = start(&db, &[]);
    let (s, v) = http(&server.addr, "GET", &format!("/api/games/{id}"), &[], "");
    assert_eq!(s, 200, "{v}");
    assert!(v.contains(r#""moves":["f5"]"#), "{v}");
    let (s, v) = http(
        &server.addr,
        "POST",
        &format!("/api/games/{id}/moves"),
        &[("x-player-token", &token)],
        r#"{"square":"d6"}"#,
    );
    assert_eq!(s, 200, "{v}");
    assert!(v.contains(r#""moves":["f5","d6"]"#), "{v}");
}

#[test]
fn a_local_server_answers_to_its_own_names_and_its_public_url_only() {
    let dir = tempfile::tempdir().unwrap();
    let public = "http://reversi.example:9000/";
    let server = start(&dir.path().join("g.sqlite3"), &["--public-url", public]);
    let addr = server.addr.as_str();
    // A proxy in front passes on the public name; the links name it too.
    for host in [addr, "localhost:8080", "reversi.example:9000"] {
        let (s, body) = get_as(addr, host, "/api/site");
        assert_eq!(s, 200, "{host}: {body}");
        assert_eq!(field(&body, "base"), public, "{body}");
    }
    // DNS rebinding: another name that resolves here is refused.
    let (s, body) = get_as(addr, "evil.example", "/api/site");
    assert_eq!(s, 403, "{body}");
    assert!(body.contains("evil.example"), "{body}");
}

/// `reversi serve ARGS` that should refuse to start: its error output. Run under `timeout`,
/// so that a server that starts after all fails the test instead of hanging it.
fn refused(db: &Path, args: &[&str]) -> String {
    let out = TestCommand::new("timeout")
        .args(["10", BIN, "serve", "--db"])
        .arg(db)
        .args(args)
        .run();
    assert_eq!(
        out.status.code(),
        Some(1),
        "the server should have refused to start: {out}"
    );
    out.stderr
}

/// A regression test: `--no-admin-token` was taken with `--public-url` on a loopback address,
/// so behind a proxy anyone on the internet could delete and import games.
#[test]
fn no_admin_token_is_refused_when_others_can_reach_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");
    let err = refused(
        &db,
        &[
            "--addr",
            "127.0.0.1:0",
            "--no-admin-token",
            "--public-url",
            "https://reversi.example/",
        ],
    );
    assert!(
        err.contains("--no-admin-token") && err.contains("--public-url https://reversi.example/"),
        "{err}"
    );
    let err = refused(
        &db,
        &[
            "--addr",
            "127.0.0.1:0",
            "--no-admin-token",
            "--allow-host",
            "reversi.example",
        ],
    );
    assert!(err.contains("--allow-host reversi.example"), "{err}");
    let err = refused(&db, &["--addr", "0.0.0.0:0", "--no-admin-token"]);
    assert!(err.contains("0.0.0.0"), "{err}");
    // On this machine alone it is allowed (a name for this machine too).
    let server = start(&db, &["--no-admin-token", "--allow-host", "localhost"]);
    let (s, body) = http(&server.addr, "GET", "/api/server", &[], "");
    assert_eq!(s, 200, "{body}");
}

/// The server raises its soft limit on open files to the hard one (each connection is a
/// file), and keeps its connections within that limit, saying so.
#[cfg(target_os = "linux")]
#[test]
fn the_open_file_limit_is_raised_and_bounds_the_connections() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");
    let serve = |limits: &str| {
        launch(
            TestCommand::new("sh")
                .args([
                    "-c",
                    &format!("{limits} && exec \"$0\" serve --addr 127.0.0.1:0 --db \"$1\""),
                    BIN,
                ])
                .arg(&db),
        )
    };
    let files = |server: &Server| {
        let limits =
            std::fs::read_to_string(format!("/proc/{}/limits", server.child.id())).unwrap();
        let line = limits
            .lines()
            .find(|l| l.starts_with("Max open files"))
            .unwrap()
            .to_string();
        let n: Vec<String> = line
            .split_whitespace()
            .skip(3)
            .take(2)
            .map(String::from)
            .collect();
        (n[0].clone(), n[1].clone())
    };
    // A low soft limit under the default hard one: raised to the hard limit.
    let hard = TestCommand::new("sh")
        .args(["-c", "ulimit -Hn"])
        .run()
        .stdout;
    let server = serve("ulimit -Sn 256");
    let (soft, max) = files(&server);
    assert_eq!(soft, max, "the soft limit stayed below the hard one");
    assert_eq!(max, hard.trim());
    drop(server);
    // A hard limit under the connections asked for: the connections are capped to fit.
    let mut server = serve("ulimit -n 200");
    let mut said = String::new();
    while !said.contains("press Ctrl-C") {
        assert!(server.out.read_line(&mut said).unwrap() > 0, "{said}");
    }
    assert!(said.contains("at most 136 connections"), "{said}");
    let (s, body) = http(&server.addr, "GET", "/api/server", &[], "");
    assert_eq!(s, 200, "{body}");
}

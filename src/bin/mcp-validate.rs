//! `mcp-validate`: checks a recorded MCP session against the exact types of its revision.
//!
//! ```text
//! cargo run --release --features cli --bin mcp-validate [-- [--revision <rev>] <file|->]
//! ```
//!
//! The input is JSON Lines: each line a bare JSON-RPC message or a record
//! `{"dir": "c2s" | "s2c", "msg": <message>}`. Without a file it validates the bundled sample
//! session `examples/data/sample-session.jsonl`; `-` reads standard input.
//!
//! Standard output gets one line per invalid message,
//! `line <n>: <method, or "response to <method>">: at <json path>: <error>`, then the summary
//! `checked <N> messages: <V> valid, <I> invalid`. Standard error gets the revision used (and
//! how it was found) and the warnings, which do not fail the run: responses whose request never
//! appeared, requests never answered, reused ids, methods no revision defines.
//!
//! Exit status: 0 when every message is valid, 1 when any is invalid, 2 for a usage or input
//! error (bad arguments, unreadable file, a revision this build does not support).
//!
//! The logic is the library's [`mcp_spec_types::validate`] module; this is a thin shell.

use mcp_spec_types::validate::{validate_session, DetectionSource};
use mcp_spec_types::ProtocolVersion;
use std::io::Read;
use std::process::ExitCode;

/// The bundled sample session, built into the program so that an installed `mcp-validate`
/// has it too (an installed binary has no source tree to read it from).
const SAMPLE: &[u8] = include_bytes!("../../examples/data/sample-session.jsonl");

const USAGE: &str = "usage: mcp-validate [--revision <rev>] [<file|->]

Validates a recorded MCP session (JSON Lines: bare JSON-RPC messages or
{\"dir\":\"c2s\"|\"s2c\",\"msg\":...} records) against the exact types of its revision.
Without a file, validates the bundled sample session; `-` reads standard input.

  --revision <rev>  validate against this revision (e.g. 2025-06-18) instead of the one
                    detected from the session
  -h, --help        show this help

Exit status: 0 all valid, 1 some invalid, 2 usage or input error.";

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(message) => {
            eprintln!("mcp-validate: {message}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let mut revision = None;
    let mut input = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            "--revision" => {
                let value = args
                    .next()
                    .ok_or("--revision needs a value\n\n".to_owned() + USAGE)?;
                revision = Some(ProtocolVersion::from(value.as_str()));
            }
            _ if arg.starts_with("--revision=") => {
                revision = Some(ProtocolVersion::from(&arg["--revision=".len()..]));
            }
            _ if arg.starts_with('-') && arg != "-" => {
                return Err(format!("unknown option {arg}\n\n{USAGE}"));
            }
            _ if input.is_some() => return Err(format!("more than one input\n\n{USAGE}")),
            _ => input = Some(arg),
        }
    }
    let bytes = if let Some(input) = &input {
        read_input(input)?
    } else {
        SAMPLE.to_vec()
    };

    let report = validate_session(&bytes, revision).map_err(|e| e.to_string())?;
    match &report.detection {
        None => eprintln!("validating against revision {} (given)", report.revision),
        Some(d) if d.source == DetectionSource::Fallback => eprintln!(
            "no protocol version found in the session: validating against {}, the latest released revision this build supports (use --revision to choose)",
            report.revision
        ),
        Some(d) => eprintln!(
            "validating against revision {} (from {})",
            report.revision, d.source
        ),
    }
    for invalid in &report.invalid {
        println!("{invalid}");
    }
    for warning in &report.warnings {
        eprintln!("{warning}");
    }
    println!("{}", report.summary);
    Ok(ExitCode::from(report.exit_code() as u8))
}

/// Reads the session from a file, or from standard input for `-`.
fn read_input(input: &str) -> Result<Vec<u8>, String> {
    if input == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("reading standard input: {e}"))?;
        Ok(bytes)
    } else {
        std::fs::read(input).map_err(|e| format!("reading {input}: {e}"))
    }
}

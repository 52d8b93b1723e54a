#!/usr/bin/env bash
# Writes docs/cli.md anew from the --help text of every command.
set -euo pipefail
cd "$(dirname "$0")/.."
MANCALA_UPDATE_DOCS=1 cargo test --release --test it cli_reference::

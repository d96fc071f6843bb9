#!/usr/bin/env bash
# Installs the published MCP servers that the mcpsnap integration test
# snapshots, at pinned versions, from the npm registry, under
# .cache/mcp-servers/<package>@<version>/ (ignored by git).
#
# Idempotent: a package whose install finished (marker file present, version
# matching) is skipped, so a second run only checks files and takes well
# under a second. Transitive dependencies are resolved as the registry stood
# at NPM_BEFORE, so every install gets the same dependency tree.
#
# Without node/npm it prints a notice and exits 0: the integration test then
# skips with a clear message.
set -euo pipefail
cd "$(dirname "$0")/.."

ROOT="${DEFERSIM_MCP_SERVERS:-.cache/mcp-servers}"
NPM_BEFORE="${NPM_BEFORE:-2026-11-30T09:00:00Z}"
PACKAGES=(
  "@modelcontextprotocol/server-everything@2025.5.12"
  "@modelcontextprotocol/server-everything@2025.11.25"
  "@modelcontextprotocol/server-filesystem@2025.7.29"
  "@modelcontextprotocol/server-filesystem@2025.11.25"
)

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "install-mcp-servers: node/npm not found; MCP server integration tests will skip"
  exit 0
fi

start=$(date +%s)
for spec in "${PACKAGES[@]}"; do
  pkg="${spec%@*}"
  ver="${spec##*@}"
  prefix="$ROOT/$spec"
  marker="$prefix/.installed"
  pj="$prefix/node_modules/$pkg/package.json"
  if [ -f "$marker" ] && [ -f "$pj" ] && grep -q "\"version\": *\"$ver\"" "$pj"; then
    echo "install-mcp-servers: $spec already installed"
    continue
  fi
  echo "install-mcp-servers: installing $spec"
  rm -rf "$prefix"
  mkdir -p "$prefix"
  for attempt in 1 2; do
    if npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts \
      --prefer-offline --loglevel=error --before="$NPM_BEFORE" "$spec"; then
      break
    fi
    if [ "$attempt" = 2 ]; then
      echo "install-mcp-servers: npm install $spec failed twice" >&2
      exit 1
    fi
    echo "install-mcp-servers: npm install $spec failed; retrying"
    sleep 5
  done
  grep -q "\"version\": *\"$ver\"" "$pj"
  touch "$marker"
done
echo "install-mcp-servers: done in $(( $(date +%s) - start ))s ($ROOT)"

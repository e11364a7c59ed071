#!/usr/bin/env bash
# Installs every system package bench's targets and services use (Debian/Ubuntu).
# Idempotent and non-interactive; needs root (or sudo). bench starts these programs itself,
# with its own configs in private temp dirs: the system's services are neither configured nor used.
set -euo pipefail

PACKAGES=(
  # backing services (PostgreSQL for --db postgres: TechEmpower's types on the database most of its entries use)
  redis-server memcached mariadb-server postgresql
  # web servers
  nginx apache2 apache2-utils fcgiwrap
  # load engines: wrk, h2load (ab comes with apache2-utils)
  wrk nghttp2-client
  # PHP targets: FPM, mod_php, CGI, CLI server, and the extensions the scenarios use
  php-fpm libapache2-mod-php php-cgi libapache2-mod-fcgid php-cli php-mysql php-pgsql php-redis php-memcached
  # APCu: the in-process cache of TechEmpower's cached-queries under FPM, mod_php, fcgid and php -S
  php-apcu
  # Perl targets: mod_perl, FastCGI, CGI, and the modules the scenarios use
  libapache2-mod-perl2 libfcgi-perl libfcgi-procmanager-perl libdbi-perl libdbd-mariadb-perl libdbd-pg-perl
  libredis-perl libcache-memcached-fast-perl libhtml-parser-perl
  # JSON for the TechEmpower scenarios (JSON::XS, as TFB's Perl entries use)
  libjson-xs-perl
  # Perl template engines under mod_perl (article 000's Embperl and ASP PerlScript rows)
  libembperl-perl libapache-asp-perl
  # Java targets: Tomcat 10 and Jetty 9 embedded, the javax servlet API for Jetty, the JDBC and
  # memcached clients (Jedis, which Debian lacks, is fetched from Maven Central at first use)
  libtomcat10-embed-java libjetty9-java libservlet-api-java libmariadb-java libspymemcached-java
  # prlimit (raising the open-files limit) and ps
  util-linux procps
  # --server-host reaches other hosts with the system's OpenSSH client; its tests start OpenSSH's daemon (never the
  # system's service) in network namespaces of their own, made with iproute2
  openssh-client openssh-server iproute2
  # the HTML report's browser test drives Debian's Chromium through playwright-core
  chromium
  # the remote-write output's test sends a run to a real Prometheus, started by the test
  prometheus
  # --profile samples native stacks (nginx, Apache, PHP, Perl) with perf; readelf (binutils) tells whether a binary
  # keeps frame pointers, else perf unwinds from DWARF
  linux-perf binutils
)

# a JDK compiles the Java targets' servlets: the distribution's default one, unless javac is already there
command -v javac >/dev/null || PACKAGES+=(default-jdk-headless)
# article 002's HTTPS clients: Go (unless one is installed), Perl's TLS, openssl for the run's certificates
command -v go >/dev/null || PACKAGES+=(golang-go)
PACKAGES+=(libio-socket-ssl-perl openssl)
# the wire engine's native core, which npm run build compiles (without a compiler wire runs its js core); its arm64
# binary, cross compiled for the package (npm pack), and run by an arm64 Node under qemu in its test; clang and its
# runtimes fuzz its framer (scripts/check/fuzz-framer.sh), gcc's sanitizers check it under the wire tests (native-sanitizers.sh)
PACKAGES+=(gcc libc6-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross libstdc++6-arm64-cross qemu-user clang libclang-rt-dev)

# k6 needs a newer Go than some distributions ship (Debian 12's is 1.19); see the k6 step below
K6_VERSION=v1.8.1
K6_MIN_GO=1.25
K6_BUILD_GO=go1.25.4
go_is_new_enough() {
  local have
  have=$(go env GOVERSION 2>/dev/null | sed 's/^go//') || return 1
  [ -n "$have" ] && [ "$(printf '%s\n%s\n' "$K6_MIN_GO" "$have" | sort -V | head -n1)" = "$K6_MIN_GO" ]
}
if ! command -v go >/dev/null || ! go_is_new_enough; then PACKAGES+=(curl ca-certificates unzip); fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done

SUDO=""
policy_rc_created=""
toolchain_dir=""
cleanup() {
  if [ -n "$policy_rc_created" ]; then $SUDO rm -f /usr/sbin/policy-rc.d; fi
  if [ -n "$toolchain_dir" ]; then rm -rf "$toolchain_dir"; fi
}
trap cleanup EXIT
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-system: all ${#PACKAGES[@]} packages already installed"
else
  if [ -n "$SUDO" ] && ! command -v sudo >/dev/null; then
    echo "setup-system: run as root to install: ${missing[*]}" >&2
    exit 2
  fi
  echo "setup-system: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # bench starts these servers itself; keep the packages from starting system services on ports
  # 80, 3306, 6379... while they install (nginx and Apache would even fight over port 80).
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod +x /usr/sbin/policy-rc.d
    policy_rc_created=1
  fi
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# k6 (the k6 engine, --generators): no Debian package, so built from the Go module proxy (about
# 3 minutes on 2 cores), into /usr/local/bin as root, else into Go's own bin directory
if command -v k6 >/dev/null && k6 version 2>/dev/null | grep -q "k6 ${K6_VERSION} "; then
  echo "setup-system: k6 ${K6_VERSION} already installed"
elif [ -x "$HOME/go/bin/k6" ] && "$HOME/go/bin/k6" version 2>/dev/null | grep -q "k6 ${K6_VERSION} "; then
  echo "setup-system: k6 ${K6_VERSION} already in $HOME/go/bin"
elif command -v go >/dev/null; then
  GO=go
  if ! go_is_new_enough; then
    # a Go before 1.21 cannot switch to a newer toolchain itself: fetch the one go would fetch, from
    # the same module proxy, for this build only
    toolchain_dir=$(mktemp -d)
    module="v0.0.1-${K6_BUILD_GO}.linux-$(go env GOHOSTARCH)"
    echo "setup-system: $(go version) is older than k6 ${K6_VERSION} needs; fetching ${K6_BUILD_GO} from the Go module proxy"
    proxy=$(go env GOPROXY | tr ',|' '\n\n' | grep -m1 '^https\?://' || echo https://proxy.golang.org)
    curl -fsSL "${proxy%/}/golang.org/toolchain/@v/${module}.zip" -o "$toolchain_dir/go.zip"
    unzip -q "$toolchain_dir/go.zip" -d "$toolchain_dir"
    GOROOT_NEW="$toolchain_dir/golang.org/toolchain@${module}"
    # module zips do not keep file modes
    chmod +x "$GOROOT_NEW"/bin/* "$GOROOT_NEW"/pkg/tool/*/*
    GO="$GOROOT_NEW/bin/go"
  fi
  echo "setup-system: building k6 ${K6_VERSION} with $("$GO" version)"
  if [ "$(id -u)" -eq 0 ]; then export GOBIN=/usr/local/bin; fi
  env -u GOROOT GOTOOLCHAIN=local "$GO" install "go.k6.io/k6@${K6_VERSION}"
else
  echo "setup-system: no Go toolchain, so no k6: the k6 engine needs \`go install go.k6.io/k6@${K6_VERSION}\`" >&2
fi

#!/usr/bin/env bash
# A lab of hosts on this one machine, for trying --server-host and --database-host without a second machine, and for
# the measured example in docs/hosts.md: a client host and two server hosts ("server", "db"), each a network namespace
# of its own joined by a bridge (10.208.0.1, .2, .3), each server host running OpenSSH's daemon with a config and keys
# made here (never the system's service). Runs the command given after -- in the client's namespace with the lab's ssh
# config and this checkout as the hosts' install, then removes everything. Needs root (sshd and the namespaces).
#
#   sudo bash scripts/lab/hosts-lab.sh [--pin] -- npx bench run hello -c 50 -d 3 --server-host ssh://server
#
# --pin: the server hosts on CPU 0 and the client on CPU 1 (two machines of one core each, as far as CPU goes).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
pin=no
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  case "$1" in
    --pin) pin=yes ;;
    *)
      echo "hosts-lab: unknown option $1 (usage: hosts-lab.sh [--pin] -- COMMAND...)" >&2
      exit 2
      ;;
  esac
  shift
done
[ "${1:-}" = -- ] && shift
if [ $# -eq 0 ]; then
  echo 'hosts-lab: give the command to run after --, e.g. -- npx bench run hello --server-host ssh://server' >&2
  exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
  echo 'hosts-lab: needs root (it starts sshd in network namespaces of its own)' >&2
  exit 2
fi
for tool in unshare nsenter ip ssh ssh-keygen /usr/sbin/sshd taskset; do
  command -v "$tool" >/dev/null || {
    echo "hosts-lab: $tool not found (apt-get install openssh-client openssh-server iproute2 util-linux)" >&2
    exit 2
  }
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-hosts-lab-XXXXXX")
pids=()
cleanup() {
  kill -9 "${pids[@]}" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

# a holder process for each host's namespaces (its pid in $held), once it is inside them
hold() {
  unshare -n -m --propagation private sleep infinity </dev/null >/dev/null 2>&1 &
  held=$!
  disown
  pids+=("$held")
  until [ "$(readlink /proc/$held/ns/net 2>/dev/null)" != "$(readlink /proc/self/ns/net)" ]; do sleep 0.02; done
}
# a command in a host's namespaces, in this folder (nsenter -m alone would start it in /)
in_host() {
  local pid=$1
  shift
  nsenter -t "$pid" -n -m --wd="$repo" -- "$@"
}

hold
client=$held
in_host "$client" ip link set lo up
in_host "$client" ip link add br0 type bridge
in_host "$client" ip addr add 10.208.0.1/24 dev br0
in_host "$client" ip link set br0 up

ssh-keygen -q -t ed25519 -N '' -C bench-lab -f "$dir/id_ed25519"
ssh-keygen -q -t ed25519 -N '' -C bench-lab -f "$dir/host_ed25519"
cp "$dir/id_ed25519.pub" "$dir/authorized_keys"
mkdir -p /run/sshd
: >"$dir/ssh_config"
server_cpu=()
client_cpu=()
if [ "$pin" = yes ]; then
  server_cpu=(taskset -c 0)
  client_cpu=(taskset -c 1)
fi
n=2
for name in server db; do
  hold
  pid=$held
  address=10.208.0.$n
  in_host "$client" ip link add "v$n" type veth peer name eth0 netns "$pid"
  in_host "$client" ip link set "v$n" master br0
  in_host "$client" ip link set "v$n" up
  in_host "$pid" ip addr add "$address/24" dev eth0
  in_host "$pid" ip link set eth0 up
  in_host "$pid" ip link set lo up
  cat >"$dir/sshd-$name.conf" <<EOF
ListenAddress $address:22
HostKey $dir/host_ed25519
PidFile $dir/sshd-$name.pid
AuthorizedKeysFile $dir/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
SetEnv PATH=$PATH
LogLevel ERROR
EOF
  # nsenter itself becomes sshd (no shell between), so the cleanup's kill reaches it
  nsenter -t "$pid" -n -m -- "${server_cpu[@]}" /usr/sbin/sshd -D -e -f "$dir/sshd-$name.conf" </dev/null &
  pids+=($!)
  disown
  echo "$address $(cut -d' ' -f1,2 "$dir/host_ed25519.pub")" >>"$dir/known_hosts"
  cat >>"$dir/ssh_config" <<EOF
Host $name
  HostName $address
  User root
  IdentityFile $dir/id_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $dir/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
EOF
  until in_host "$pid" ss -ltnH | grep -q "$address:22"; do sleep 0.05; done
  n=$((n + 1))
done
chmod 600 "$dir/ssh_config"
echo "hosts-lab: client 10.208.0.1, server 10.208.0.2, db 10.208.0.3$([ "$pin" = yes ] && echo '; the servers on CPU 0, the client on CPU 1')" >&2
in_host "$client" "${client_cpu[@]}" "$@" --ssh-config "$dir/ssh_config" --remote-dir "$repo"

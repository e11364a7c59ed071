// The wire engine's native loop (Linux), with no call into JavaScript per read: connections on one epoll set, the
// requests they send, the answers http-framer.c frames, their failures and timeouts, and the closed loop (-c keep-alive
// connections, each sending the run's request again as its answer is framed). The open loop of --rate (open-loop.c)
// drives the same connections on a schedule through its hooks. Each slice writes its events (connects, answers,
// failures) into records that JavaScript counts (wire-binding.c). Built by scripts/build-native.mjs with the system's C
// compiler; without it the engine runs its JavaScript loops.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "arrival-stamp.h"
#include "wire-loop.h"

int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}
static double ms_at(loop_t *l, int64_t ns) { return (double)(ns - l->origin_ns) / 1e6; }

static double *record(loop_t *l, int kind, conn_t *c) {
  double *r = l->scratch;
  if (l->records_len < l->records_cap) r = l->records + l->records_len++ * RECORD;
  else l->lost++;
  memset(r, 0, sizeof(double) * RECORD);
  r[0] = kind;
  r[1] = c->slot;
  return r;
}

// a message for a failure, kept in the text buffer (cut short when it is full): its offset and length go in the record
static void text_at(loop_t *l, double *r, int at, const char *text, size_t n) {
  size_t room = l->text_cap - l->text_len;
  if (n > room) n = room;
  memcpy(l->text + l->text_len, text, n);
  r[at] = (double)l->text_len;
  r[at + 1] = (double)n;
  l->text_len += n;
}
static void message(loop_t *l, double *r, const char *text) { text_at(l, r, 4, text, strlen(text)); }

static void watch(loop_t *l, conn_t *c, int op) {
  struct epoll_event e = {.events = EPOLLIN | EPOLLRDHUP | (c->connected && !c->want_out ? 0 : EPOLLOUT),
                          .data.u64 = (uint64_t)c->slot | ((uint64_t)c->generation << 32)};
  epoll_ctl(l->ep, op, c->fd, &e);
}

static void close_fd(loop_t *l, conn_t *c) {
  if (c->fd < 0) return;
  epoll_ctl(l->ep, EPOLL_CTL_DEL, c->fd, NULL);
  close(c->fd);
  c->fd = -1;
}

static int64_t take(loop_t *l, int64_t wanted) {
  if (l->budget < 0) return wanted;
  int64_t granted = wanted < l->budget ? wanted : l->budget;
  if (granted < 0) granted = 0;
  l->budget -= granted;
  return granted;
}

// the connection ended: a new one takes its place while the run goes on and the budget holds requests for it
static void ended(loop_t *l, conn_t *c, int refused, int64_t now) {
  close_fd(l, c);
  if (l->hooks) return l->hooks->ended(l, c, refused, now);
  if (l->stopped) return;
  if (l->budget < 0 || l->budget > l->opening) {
    l->opening++;
    if (refused) c->reopen_at = now + RETRY_AFTER_REFUSAL_NS, l->waiting++;
    else start_connect(l, c, now);
  }
}

static void fail(loop_t *l, conn_t *c, int kind, const char *text, int64_t now) {
  if (c->fd < 0) return;
  int refused = !c->connected;
  uint32_t lost = c->inflight > 0 ? c->inflight : 1;
  double *r = record(l, EV_FAILED, c);
  r[2] = kind;
  r[3] = lost;
  r[6] = ms_at(l, now);
  message(l, r, text);
  c->inflight = 0;
  c->unsent = 0;
  if (refused) {
    l->opening--;
    // a connect that failed had no request in flight: the attempt is the request that failed
    take(l, 1);
  }
  ended(l, c, refused, now);
}

// errno's name, as Node's error codes give it
static const char *errno_name(int err, char *other, size_t other_len) {
  switch (err) {
    case ECONNREFUSED: return "ECONNREFUSED";
    case ECONNRESET: return "ECONNRESET";
    case ECONNABORTED: return "ECONNABORTED";
    case EPIPE: return "EPIPE";
    case ETIMEDOUT: return "ETIMEDOUT";
    case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
    case EHOSTUNREACH: return "EHOSTUNREACH";
    case ENETUNREACH: return "ENETUNREACH";
    case EMFILE: return "EMFILE";
    case ENFILE: return "ENFILE";
    case EAFNOSUPPORT: return "EAFNOSUPPORT";
    default: snprintf(other, other_len, "E%d", err); return other;
  }
}

// a failed system call, sorted into ab's buckets as the engine's classifyError sorts Node's error codes
static void fail_errno(loop_t *l, conn_t *c, const char *what, int err, int64_t now) {
  char text[96], other[16];
  snprintf(text, sizeof text, "%s %s", what, errno_name(err, other, sizeof other));
  int connect_code = err == ECONNREFUSED || err == EADDRNOTAVAIL || err == EHOSTUNREACH || err == ENETUNREACH || err == EMFILE ||
                     err == ENFILE || err == ETIMEDOUT;
  int receive_code = err == ECONNRESET || err == EPIPE || err == ECONNABORTED;
  // an idle connection reset (the open loop's, between requests due) lost no request: it only ends, as on the js core
  if (c->connected && c->inflight == 0 && c->unsent == 0) return ended(l, c, 0, now);
  fail(l, c, !c->connected || connect_code ? F_CONNECT : receive_code ? F_RECEIVE : F_EXCEPTIONS, text, now);
}

static void malformed(loop_t *l, conn_t *c, const char *what, int64_t now) {
  char text[200];
  snprintf(text, sizeof text, "malformed answer: %s", what);
  fail(l, c, F_EXCEPTIONS, text, now);
}

static void cut_short(loop_t *l, conn_t *c, const char *what, int64_t now) {
  char text[200];
  snprintf(text, sizeof text, "malformed answer: %s", what);
  fail(l, c, F_RECEIVE, text, now);
}

// writes what is queued; what the kernel does not take waits for EPOLLOUT
static int flush(loop_t *l, conn_t *c, int64_t now) {
  while (c->unsent > 0) {
    uint32_t copies = c->unsent < l->depth ? c->unsent : l->depth;
    size_t length = copies * l->request_len - c->written;
    // MSG_NOSIGNAL: a peer gone is an EPIPE to count, not a SIGPIPE
    ssize_t n = send(c->fd, l->requests + c->written, length, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) break;
      fail_errno(l, c, "write", errno, now);
      return -1;
    }
    size_t total = c->written + (size_t)n;
    c->unsent -= (uint32_t)(total / l->request_len);
    c->written = total % l->request_len;
    if ((size_t)n < length) break;
  }
  uint8_t want = c->unsent > 0;
  if (want != c->want_out) {
    c->want_out = want;
    watch(l, c, EPOLL_CTL_MOD);
  }
  return 0;
}

void send_requests(loop_t *l, conn_t *c, uint32_t count, int64_t now) {
  for (uint32_t i = 0; i < count; i++) {
    uint32_t ring = c->oldest + c->inflight++;
    c->sent[ring < l->depth ? ring : ring - l->depth] = now;
  }
  c->unsent += count;
  if (!c->want_out) flush(l, c, now);
}

// requests the connection may still put in flight: its pipeline's depth, within what its answers' limit leaves
uint32_t room_on(const loop_t *l, const conn_t *c) {
  uint32_t cap = l->depth;
  if (l->per_conn && l->per_conn - c->answers < cap) cap = l->per_conn - c->answers;
  return cap > c->inflight ? cap - c->inflight : 0;
}

void start_connect(loop_t *l, conn_t *c, int64_t now) {
  c->reopen_at = 0;
  c->generation++;
  c->connected = 0;
  c->closing = 0;
  c->answers = 0;
  c->inflight = c->unsent = 0;
  c->oldest = 0;
  c->written = 0;
  c->want_out = 0;
  framer_reset(&c->framer);
  c->asked_ns = now;
  c->fd = socket(l->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (c->fd < 0) {
    c->fd = -1;
    char text[64], other[16];
    snprintf(text, sizeof text, "connect %s", errno_name(errno, other, sizeof other));
    // no socket to fail: told as a failed connect, retried later
    double *r = record(l, EV_FAILED, c);
    r[2] = F_CONNECT;
    r[3] = 1;
    r[6] = ms_at(l, now);
    message(l, r, text);
    l->opening--;
    take(l, 1);
    ended(l, c, 1, now);
    return;
  }
  int one = 1;
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  // the open loop reads on ticks, and times each answer from its arrival stamp; a socket that refuses stamps is timed
  // from its reads
  if (l->hooks) (void)arrival_stamps_on(c->fd);
  int status = connect(c->fd, (struct sockaddr *)&l->addr, l->addr_len);
  watch(l, c, EPOLL_CTL_ADD);
  if (status < 0 && errno != EINPROGRESS) fail_errno(l, c, "connect", errno, now);
}

static void connected(loop_t *l, conn_t *c, int64_t now) {
  int err = 0;
  socklen_t len = sizeof err;
  if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) err = errno;
  if (err) return fail_errno(l, c, "connect", err, now);
  c->connected = 1;
  l->opening--;
  double *r = record(l, EV_CONNECTED, c);
  r[2] = (double)(now - c->asked_ns) / 1e6;
  r[6] = ms_at(l, now);
  watch(l, c, EPOLL_CTL_MOD);
  if (l->hooks) return l->hooks->connected(l, c);
  if (!l->stopped) {
    int64_t granted = take(l, room_on(l, c));
    if (granted > 0) send_requests(l, c, (uint32_t)granted, now);
  }
}

// the answer the framer made whole, arrived at `now`: counted, and the next request sent (or the connection closed, when
// it closes it); in the open loop the connection is free for the next request due
static void answered(loop_t *l, conn_t *c, int64_t now) {
  const http_framer *f = &c->framer;
  int64_t sent = c->sent[c->oldest];
  // the open loop's latency counts from when the request was due (coordinated omission corrected)
  int64_t due = l->hooks ? c->due[c->oldest] : sent;
  c->oldest = c->oldest + 1 == l->depth ? 0 : c->oldest + 1;
  c->inflight--;
  c->answers++;
  double *r = record(l, EV_ANSWER, c);
  r[2] = f->status;
  r[3] = (double)(now - due) / 1e3;
  r[4] = (double)f->bytes;
  r[5] = (double)f->body_bytes;
  r[6] = ms_at(l, now);
  r[7] = (f->body_ok ? A_BODY_OK : 0) | (f->closes ? A_CLOSES : 0) | (c->answers == 1 ? A_FIRST : 0);
  // the first answer on a connection: from the connection's start to its first byte (the read that ended it)
  if (c->answers == 1) r[8] = (double)(now - c->asked_ns) / 1e6;
  r[9] = f->body_ok ? -1 : (double)f->mismatch_at;
  if (!f->body_ok && f->mismatch_at >= 0) text_at(l, r, 10, (const char *)f->sample, f->sample_len);
  r[12] = (double)(now - sent) / 1e3;
  if (l->stopped) return;
  if (f->closes || (l->per_conn && c->answers >= l->per_conn)) {
    c->closing = 1;
    // the closed loop sends the rest of its pipeline again on the connection that replaces it; the open loop's have
    // their due times gone by, and fail with the connection
    if (l->hooks) return;
    if (l->budget >= 0) l->budget += c->inflight;
    c->inflight = 0;
    return;
  }
  if (l->hooks) return l->hooks->answered(l, c);
  int64_t granted = take(l, room_on(l, c));
  if (granted > 0) send_requests(l, c, (uint32_t)granted, now);
}

// frames what one read brought. Its answers can only be to the requests in flight when it was read: one beyond them
// answers no request (a server answering twice, or a proxy out of step), and fails the connection.
static void frame(loop_t *l, conn_t *c, const uint8_t *data, size_t n, int64_t now) {
  uint32_t answerable = c->inflight;
  uint32_t generation = c->generation;
  size_t pos = 0;
  while (pos < n) {
    size_t used = 0;
    framer_status status = framer_feed(&c->framer, &l->framing, data + pos, n - pos, &used);
    pos += used;
    if (status == FRAMER_MORE) return;
    if (status == FRAMER_ERROR) return malformed(l, c, c->framer.error, now);
    if (answerable == 0) return malformed(l, c, "an answer to no request", now);
    answerable--;
    answered(l, c, now);
    // failed while sending, or closing: the rest of the read is no one's
    if (c->fd < 0 || c->generation != generation || c->closing) return;
  }
}

// a connection whose last answer closed it: ended, or failed with the open loop's requests still in flight behind it
static void closed_after(loop_t *l, conn_t *c, int64_t now) {
  if (c->inflight > 0) return fail(l, c, F_RECEIVE, "the server closed the connection with requests unanswered", now);
  ended(l, c, 0, now);
}

// reads what a connection has. The closed loop reads as soon as epoll tells, and times answers from the read; the open
// loop may read a tick later, and times them from when they arrived.
static void readable(loop_t *l, conn_t *c, int64_t now) {
  uint32_t generation = c->generation;
  for (;;) {
    int64_t arrived = now;
    ssize_t n = l->hooks ? l->hooks->read(l, c, now, &arrived) : read(c->fd, l->read_buffer, sizeof l->read_buffer);
    if (n > 0) {
      frame(l, c, l->read_buffer, (size_t)n, arrived);
      // failed while framing (and perhaps opening again in its slot)
      if (c->fd < 0 || c->generation != generation) return;
      if (c->closing) return closed_after(l, c, now);
      // a full read may have more behind it: read on while the records keep room for the rest of the batch's
      // events (epoll tells this one again)
      if ((size_t)n < sizeof l->read_buffer || l->records_len + l->room + 2 * l->depth + 8 > l->records_cap) return;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n < 0) return fail_errno(l, c, "read", errno, now);
    // the server closed: an answer framed by the close is whole now; one cut short failed
    framer_status status = framer_close(&c->framer, &l->framing);
    // an answer cut short by the close is a failed receive, as on the js core (a malformed one failed as it was read)
    if (status == FRAMER_ERROR) return cut_short(l, c, c->framer.error, now);
    if (status == FRAMER_ANSWER) {
      if (c->inflight == 0) return malformed(l, c, "an answer to no request", now);
      answered(l, c, now);
      return closed_after(l, c, now);
    }
    if (c->inflight > 0) return fail(l, c, F_RECEIVE, "the server closed the connection with requests unanswered", now);
    return ended(l, c, 0, now);
  }
}

void handle_events(loop_t *l, const struct epoll_event *events, int n, int64_t now) {
  for (int i = 0; i < n; i++) {
    conn_t *c = &l->conns[(uint32_t)events[i].data.u64];
    // an event of a connection closed since the batch was read (its slot may hold a new one)
    if (c->fd < 0 || c->generation != (uint32_t)(events[i].data.u64 >> 32)) continue;
    uint32_t e = events[i].events;
    if (!c->connected) {
      if (e & (EPOLLOUT | EPOLLERR | EPOLLHUP)) connected(l, c, now);
      continue;
    }
    if (e & EPOLLOUT && c->want_out && flush(l, c, now) < 0) continue;
    if (e & (EPOLLIN | EPOLLERR | EPOLLHUP | EPOLLRDHUP)) readable(l, c, now);
  }
}

// the connections whose wait after a refused connect is over: opened again (the open loop frees their slots instead)
void reopen_waiting(loop_t *l, int64_t now) {
  for (int i = 0; i < l->count && l->waiting > 0 && l->records_len + 4 < l->records_cap; i++) {
    conn_t *c = &l->conns[i];
    if (c->fd >= 0 || c->reopen_at == 0 || c->reopen_at > now) continue;
    l->waiting--;
    if (l->hooks) l->hooks->slot_free(l, c);
    else start_connect(l, c, now);
  }
}

int any_in_flight(const loop_t *l) {
  for (int i = 0; i < l->count; i++)
    if (l->conns[i].fd >= 0 && l->conns[i].inflight > 0) return 1;
  return 0;
}

// fails requests (and connects) older than --timeout, every 50 ms
void sweep(loop_t *l, int64_t now) {
  if (now - l->last_sweep_ns <= 50000000LL) return;
  l->last_sweep_ns = now;
  char text[64];
  snprintf(text, sizeof text, "no answer within %g s", (double)l->timeout_ns / 1e9);
  for (int i = 0; i < l->count && l->records_len + 2 < l->records_cap; i++) {
    conn_t *c = &l->conns[i];
    if (c->fd < 0) continue;
    if (c->connected ? c->inflight > 0 && now - c->sent[c->oldest] > l->timeout_ns : now - c->asked_ns > l->timeout_ns)
      fail(l, c, c->connected ? F_TIMEOUT : F_CONNECT, text, now);
  }
}

int closed_pump(loop_t *l, int64_t slice_ns) {
  int64_t now = now_ns(), until = now + slice_ns;
  struct epoll_event events[BATCH];
  for (; l->unopened < l->count && l->records_len + 4 < l->records_cap; l->unopened++) {
    l->opening++;
    start_connect(l, &l->conns[l->unopened], now);
  }
  while (!l->stopped && l->records_len + l->room < l->records_cap) {
    // rounded up: a wait of 0 for the slice's last fraction of a millisecond would spin
    int wait = (int)((until - now + 999999) / 1000000);
    int n = epoll_wait(l->ep, events, BATCH, wait > 0 ? wait : 0);
    now = now_ns();
    handle_events(l, events, n, now);
    reopen_waiting(l, now);
    sweep(l, now);
    if (l->budget == 0 && !any_in_flight(l)) return 1;
    if (now >= until) break;
  }
  return 0;
}

void close_connections(loop_t *l) {
  for (int i = 0; i < l->count; i++) close_fd(l, &l->conns[i]);
}

void release_loop(loop_t *l) {
  if (l->conns) {
    for (int i = 0; i < l->count; i++) {
      close_fd(l, &l->conns[i]);
      free(l->conns[i].sent);
      free(l->conns[i].due);
    }
  }
  if (l->ep >= 0) close(l->ep);
  l->ep = -1;
  free(l->conns);
  l->conns = NULL;
  free(l->requests);
  l->requests = NULL;
  free(l->expected);
  l->expected = NULL;
}
